// assets.js — the page's own files that it fetches as text (Ag's glue, the
// worker, Graphviz), each fetched once and kept: a new worker after Stop, or
// Graphviz in the page after the worker's, needs no network, so the page
// works offline once loaded.

const texts = new Map();

export function fetchText(url) {
  if (!texts.has(url)) texts.set(url, fetchOnce(url));
  return texts.get(url);
}

async function fetchOnce(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load ${url}: ${response.status} ${response.statusText}`);
  return response.text();
}
