/** `text` for a LIKE pattern with ESCAPE '\': its own %, _ and \ match themselves. */
export const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
