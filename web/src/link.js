// link.js — a script carried in the page's address: #code=<base64url of the
// script's UTF-8 text>, so that a teacher shares a snippet as a URL.

export function encodeCode(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/* The script of a #code= hash: {code}, {error: why it cannot be read}, or
 * null when the hash carries none. */
export function decodeHash(hash) {
  const match = /^#?code=(.*)$/s.exec(hash || "");
  if (!match) return null;
  const text = match[1];
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1)
    return { error: "the link's code is not base64url text" };
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return { code: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch (e) {
    return { error: "the link's code is not UTF-8 text" };
  }
}
