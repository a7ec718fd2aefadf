// test-web.mjs SITE_DIR — the page of `make web` in headless Chromium, served
// by a static server of its own on 127.0.0.1: a script run from a #code= link,
// a malformed link, Stop on an endless loop and a run after it, a graph and a
// plot drawn, save_graph's SVG file (and its PNG and plot.save refused),
// files kept between runs, a script that allocates without bound,
// and every snippet of the tutorial page against its expected output.
// Chromium: CHROMIUM=path, else /usr/bin/chromium. Last line: "N passed, M failed".
import { chromium } from "playwright-core";
import { createServer } from "node:http";
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, join, resolve } from "node:path";

const site = resolve(process.argv[2] || "build/web");
const TIMEOUT = Number(process.env.AG_WEB_TIMEOUT || 60000);
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css",
  ".wasm": "application/wasm", ".json": "application/json" };

function serve(dir) {
  const server = createServer((req, res) => {
    const path = join(dir, decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (!path.startsWith(dir) || !existsSync(path) || !statSync(path).isFile()) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { "Content-Type": TYPES[extname(path)] || "application/octet-stream" });
    res.end(readFileSync(path));
  });
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done(server)));
}

const b64url = (text) => Buffer.from(text, "utf8").toString("base64url");

let passed = 0, failed = 0;
async function check(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}\n    ${String(e.message || e).split("\n").join("\n    ")}`);
  }
}
function expectEqual(actual, expected, what) {
  if (actual !== expected)
    throw new Error(`${what}:\n--- expected\n${expected}\n--- actual\n${actual}`);
}

/* Loads a #code= link in a fresh page; resolves once its run has ended. */
async function openWithCode(page, base, code) {
  await page.goto("about:blank"); /* else only the hash changes: no new page */
  await page.goto(`${base}/index.html#code=${b64url(code)}`);
  await page.waitForSelector('body[data-runs="1"]', { timeout: TIMEOUT });
}

const outputText = (page) => page.$eval("#output", (e) => e.textContent);

const server = await serve(site);
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage();
page.setDefaultTimeout(TIMEOUT);

await check("a #code= link runs its script", async () => {
  const started = Date.now();
  await openWithCode(page, base, 'let x = tensor([1.0, 2.0], requires_grad=true)\n' +
    'let y = (x * x).sum()\ny.backward()\nprint(y)\nprint(x.grad)\nprint("é", 1 / 3)\n');
  console.log(`    the first script ran ${((Date.now() - started) / 1000).toFixed(2)} s after opening`);
  expectEqual(await outputText(page),
    "tensor(5., grad_fn=<SumBackward0>)\ntensor([2., 4.])\né 0.3333333333333333\n", "output");
});

await check("errors print as on the terminal, with the line", async () => {
  await openWithCode(page, base, 'print(1)\nlet t = ones(2) + ones(3)\n');
  const text = await outputText(page);
  if (!text.startsWith("1\nmain.ag:2: error: The size of tensor a (2) must match"))
    throw new Error(`output: ${text}`);
  expectEqual(await page.getAttribute("body", "data-last-status"), "1", "exit status");
});

await check("a malformed link says so in the output pane", async () => {
  await page.goto(`${base}/index.html#code=%%%not-base64`);
  await page.waitForSelector('body[data-ready="true"]');
  const text = await outputText(page);
  if (!text.includes("cannot open this link")) throw new Error(`output: ${text}`);
});

await check("Stop interrupts an endless loop and the page goes on", async () => {
  await page.goto("about:blank");
  await page.goto(`${base}/index.html#code=${b64url('let i = 0\nwhile true { i += 1; if i % 1000000 == 0 { print(i) } }\n')}`);
  await page.waitForFunction(() => document.getElementById("output").textContent.includes("1000000"));
  await page.click("#stop");
  await page.waitForSelector('body[data-runs="1"]');
  expectEqual(await page.getAttribute("body", "data-last-status"), "130", "exit status");
  if (!(await outputText(page)).includes("Interrupted")) throw new Error("no Interrupted note");
  await page.evaluate((code) => { location.hash = `code=${code}`; }, b64url('print("after", 6 * 7)\n'));
  await page.waitForSelector('body[data-runs="2"]');
  expectEqual(await outputText(page), "after 42\n", "the next run's output");
});

await check("show_graph draws the graph with Graphviz", async () => {
  await openWithCode(page, base, 'let x = tensor(2.0, requires_grad=true)\nshow_graph((x ** 2) * 3)\n');
  await page.waitForSelector("#output svg.graph g.node");
  const labels = await page.$$eval("#output svg.graph g.node text", (ts) => ts.map((t) => t.textContent).join(" "));
  if (!labels.includes("MulBackward0") || !labels.includes("PowBackward0")) throw new Error(`labels: ${labels}`);
});

await check("plot.show() draws the figure", async () => {
  await openWithCode(page, base, 'plot.line([1, 4, 9, 16], label="squares")\nplot.hist([1, 2, 2, 3], bins=3)\nplot.title("t")\nplot.show()\nprint("shown")\n');
  await page.waitForSelector("#output canvas.plot");
  const drawn = await page.$eval("#output canvas.plot", (c) => {
    const pixels = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let coloured = 0;
    for (let i = 0; i < pixels.length; i += 4) if (pixels[i] !== pixels[i + 1] || pixels[i + 1] !== pixels[i + 2]) coloured++;
    return coloured;
  });
  if (drawn < 100) throw new Error(`only ${drawn} coloured pixels`);
  if (!(await outputText(page)).includes("shown")) throw new Error("no output after the plot");
});

/* The text of a file in the page's file list, through its download link. */
async function downloadedText(page, name) {
  return page.evaluate(async (name) => {
    const link = [...document.querySelectorAll("#files a")].find((a) => a.download === name);
    return link ? (await fetch(link.href)).text() : null;
  }, name);
}

await check("save_graph writes an SVG file with Graphviz in the worker", async () => {
  await openWithCode(page, base, 'let x = tensor(2.0, requires_grad=true)\nlet y = (x ** 2) * 3\n' +
    'save_graph(y, "g.svg")\nsave_graph(y, "g.dot")\nprint(open("g.svg").read().count("<svg"))\n');
  expectEqual(await outputText(page), "1\n", "output");
  const svg = await downloadedText(page, "g.svg");
  if (svg === null) throw new Error("no g.svg in the file list");
  if (!/^(<\?xml[^>]*>\s*)?(<!DOCTYPE[^>]*>\s*)?(<!--[^]*?-->\s*)*<svg[\s>]/.test(svg) || !svg.trimEnd().endsWith("</svg>"))
    throw new Error(`not an SVG file:\n${svg.slice(0, 300)}`);
  if (!svg.includes("MulBackward0") || !svg.includes("PowBackward0")) throw new Error(`no node labels in:\n${svg}`);
  const dot = await downloadedText(page, "g.dot");
  if (dot === null || !dot.startsWith("digraph")) throw new Error(`g.dot: ${dot}`);
});

await check("save_graph to .png and plot.save say they are not available in the browser", async () => {
  await openWithCode(page, base, 'let x = tensor(2.0, requires_grad=true)\nsave_graph(x * 3, "g.png")\n');
  const png = await outputText(page);
  if (!png.startsWith("main.ag:2: error: save_graph: PNG is not available in the browser " +
    "(Graphviz there writes SVG only); save the graph as .svg or .dot\n")) throw new Error(`output: ${png}`);
  await page.evaluate((code) => { location.hash = `code=${code}`; }, b64url('plot.line([1, 2, 3])\nplot.save("p.svg")\n'));
  await page.waitForSelector('body[data-runs="2"]');
  const text = await outputText(page);
  if (!text.startsWith("main.ag:2: error: plot: SVG and PNG files of a plot (plot.save, fig.svg(), fig.png()) are not available in the browser"))
    throw new Error(`output: ${text}`);
  const names = await page.$$eval("#files a", (as) => as.map((a) => a.download));
  if (names.some((n) => n.includes("g.png") || n.includes("p.svg"))) throw new Error(`files: ${names.join(" ")}`);
});

await check("files written by one run are read by the next and can be downloaded", async () => {
  await openWithCode(page, base, 'save(arange(4.0), "t.npy")\nlet f = open("note.txt", "w")\nf.write("hi")\nf.close()\n');
  const names = await page.$$eval("#files a", (as) => as.map((a) => a.download).join(" "));
  if (!names.includes("t.npy") || !names.includes("note.txt"))
    throw new Error(`files: ${names}; output: ${await outputText(page)}`);
  await page.evaluate((code) => { location.hash = `code=${code}`; }, b64url('print(load("t.npy"))\nprint(open("note.txt").read())\n'));
  await page.waitForSelector('body[data-runs="2"]');
  expectEqual(await outputText(page), "tensor([0., 1., 2., 3.])\nhi\n", "output");
});

await check("a script that allocates without bound gets MemoryError, not a dead tab", async () => {
  await openWithCode(page, base, 'let xs = []\nwhile true { xs.append(zeros(1000000)) }\n');
  const text = await outputText(page);
  if (!/MemoryError|can't allocate memory|out of memory/.test(text)) throw new Error(`output: ${text}`);
  await page.evaluate((code) => { location.hash = `code=${code}`; }, b64url('print("alive")\n'));
  await page.waitForSelector('body[data-runs="2"]');
  expectEqual(await outputText(page), "alive\n", "the next run's output");
});

await check("the tutorial page's snippets print their expected output", async () => {
  await page.goto(`${base}/tutorial.html`);
  await page.waitForSelector('body[data-ready="true"]');
  const count = await page.$$eval(".snippet", (s) => s.length);
  const problems = [];
  for (let i = 0; i < count; i++) {
    const expected = await page.$$eval(".snippet", (s, i) => {
      const e = s[i].querySelector("pre.expected");
      return e ? e.textContent : null;
    }, i);
    const result = await page.evaluate((i) => window.agRunSnippet(i), i);
    if (result.status !== 0) problems.push(`snippet ${i + 1}: exit status ${result.status}\n${result.output}`);
    else if (expected !== null && result.transcript !== expected + "\n")
      problems.push(`snippet ${i + 1}:\n--- expected\n${expected}\n--- actual\n${result.transcript}`);
  }
  console.log(`    ${count} snippets`);
  if (problems.length) throw new Error(problems.join("\n"));
});

await browser.close();
server.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
