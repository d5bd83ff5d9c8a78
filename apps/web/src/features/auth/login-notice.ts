/** What LoginPage shows after a password was reset (router state, with the e-mail; never in the URL). */
export const PASSWORD_CHANGED = "passwordChanged";
