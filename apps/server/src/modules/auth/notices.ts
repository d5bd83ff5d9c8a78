import { randomUUID } from "node:crypto";
import type { Db } from "../../db/client";
import { queueMail } from "../../integrations/mail/outbox";

/**
 * Security notices: the account's owner hears of every change that an intruder would make, in the same
 * transaction as the change, so a notice is never lost and never sent for a change that rolled back.
 */
export type SecurityNotice =
  | { kind: "password-changed" }
  | { kind: "password-reset" }
  /** To the old address; `revertLink` puts the address back and ends every session. */
  | { kind: "email-changed"; newEmail: string; revertLink: string }
  | { kind: "new-browser"; browser: string }
  | { kind: "admin-granted" }
  | { kind: "admin-removed" }
  | { kind: "second-factor-added"; method: "authenticator" | "passkey" }
  | { kind: "second-factor-removed"; method: "authenticator" | "passkey" };

interface Wording {
  subject: [en: string, es: string];
  en: string[];
  es: string[];
}

const METHOD = {
  authenticator: ["an authenticator app", "una app de autenticación"],
  passkey: ["a passkey", "una llave de acceso (passkey)"],
} as const;

function wording(notice: SecurityNotice): Wording {
  switch (notice.kind) {
    case "password-changed":
      return {
        subject: ["your password was changed", "tu contraseña cambió"],
        en: ["The password of your Voltio account was changed."],
        es: ["La contraseña de tu cuenta de Voltio cambió."],
      };
    case "password-reset":
      return {
        subject: ["your password was reset", "tu contraseña se restableció"],
        en: ["The password of your Voltio account was reset with a link sent to this address."],
        es: ["La contraseña de tu cuenta de Voltio se restableció con un enlace enviado a esta dirección."],
      };
    case "email-changed":
      return {
        subject: ["your e-mail was changed", "tu correo cambió"],
        en: [
          `Your Voltio account now signs in with ${notice.newEmail} instead of this address.`,
          "If this wasn't you, open this link to put this address back and sign out everywhere:",
          notice.revertLink,
        ],
        es: [
          `Tu cuenta de Voltio ahora entra con ${notice.newEmail} en lugar de esta dirección.`,
          "Si no fuiste tú, abre este enlace para recuperar esta dirección y cerrar todas las sesiones:",
          notice.revertLink,
        ],
      };
    case "new-browser":
      return {
        subject: ["new sign-in", "nuevo inicio de sesión"],
        en: [
          `Your Voltio account was signed in to from a browser it had not used before: ${notice.browser}.`,
        ],
        es: [
          `Se entró a tu cuenta de Voltio desde un navegador que no había usado antes: ${notice.browser}.`,
        ],
      };
    case "admin-granted":
      return {
        subject: ["you are now an admin", "ahora eres administrador"],
        en: ["Your Voltio account was made an admin of the store."],
        es: ["Tu cuenta de Voltio ahora es administradora de la tienda."],
      };
    case "admin-removed":
      return {
        subject: ["you are no longer an admin", "ya no eres administrador"],
        en: ["Your Voltio account is no longer an admin of the store."],
        es: ["Tu cuenta de Voltio ya no es administradora de la tienda."],
      };
    case "second-factor-added":
      return {
        subject: ["second factor added", "segundo factor añadido"],
        en: [`${capitalise(METHOD[notice.method][0])} was added to your Voltio account as a way to sign in.`],
        es: [`Se añadió ${METHOD[notice.method][1]} a tu cuenta de Voltio como forma de entrar.`],
      };
    case "second-factor-removed":
      return {
        subject: ["second factor removed", "segundo factor quitado"],
        en: [`${capitalise(METHOD[notice.method][0])} was removed from your Voltio account.`],
        es: [`Se quitó ${METHOD[notice.method][1]} de tu cuenta de Voltio.`],
      };
  }
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Queues the notice to `to` in both languages; `db` may be the transaction that makes the change. */
export async function queueSecurityNotice(
  db: Pick<Db, "insert">,
  to: string,
  notice: SecurityNotice,
): Promise<void> {
  const { subject, en, es } = wording(notice);
  const unexpected = notice.kind !== "email-changed";
  await queueMail(db, {
    to,
    subject: `Voltio: ${subject[0]} / ${subject[1]}`,
    // Each change is its own notice: two password changes in a row are told twice.
    dedupeKey: `security-notice:${notice.kind}:${randomUUID()}`,
    text: [
      ...en,
      ...(unexpected ? ["", "If this wasn't you, reset your password now and contact the store."] : []),
      "",
      "—",
      ...es,
      ...(unexpected
        ? ["", "Si no fuiste tú, restablece tu contraseña ahora y contacta con la tienda."]
        : []),
    ].join("\n"),
  });
}
