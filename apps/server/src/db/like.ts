/** Text for a LIKE pattern that matches itself: `%`, `_` and `\` are not wildcards in a search box. */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
