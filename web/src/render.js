// render.js — what a script shows, drawn into an output pane: text as the
// terminal prints it, graphs from their DOT by Graphviz compiled for the
// browser (@viz-js/viz as graphviz.js, started the first time a graph is
// drawn), plots from their data by Chart.js with the plot module's line,
// scatter, hist and image.
import { fetchText } from "./assets.js";

/* An output pane: stdout and stderr in order, pictures between them. */
export class OutputPane {
  constructor(element) {
    this.element = element;
    this.lastText = null;
    /* what a terminal's stdout would hold: stdout, and the text/plain of
     * each picture in its place (show_graph's tree); for the page's tests */
    this.transcript = "";
  }

  clear() {
    this.element.replaceChildren();
    this.lastText = null;
    this.transcript = "";
  }

  write(stream, text) {
    if (stream === "stdout") this.transcript += text;
    if (!this.lastText || this.lastText.dataset.stream !== stream) {
      this.lastText = document.createElement("span");
      this.lastText.dataset.stream = stream;
      this.lastText.className = stream;
      this.element.append(this.lastText);
    }
    this.lastText.append(text);
    this.element.scrollTop = this.element.scrollHeight;
  }

  /* A MIME bundle from display(), show_graph or plot.show(). */
  display(bundle) {
    this.lastText = null;
    this.transcript += bundle["text/plain"] || "";
    const box = document.createElement("div");
    box.className = "picture";
    this.element.append(box);
    const drawn = drawBundle(box, bundle);
    drawn.catch((e) => {
      box.className = "picture failed";
      box.textContent = `cannot draw this picture: ${e.message}\n${bundle["text/plain"] || ""}`;
    });
    return drawn;
  }

  text() {
    return this.element.textContent;
  }
}

async function drawBundle(box, bundle) {
  if (bundle["text/vnd.graphviz"] !== undefined) return drawGraph(box, bundle["text/vnd.graphviz"]);
  if (bundle["application/vnd.ag.plot+json"] !== undefined)
    return drawFigure(box, JSON.parse(bundle["application/vnd.ag.plot+json"]));
  if (bundle["image/svg+xml"] !== undefined) {
    box.innerHTML = bundle["image/svg+xml"];
    return;
  }
  const pre = document.createElement("pre");
  pre.textContent = bundle["text/plain"] || "";
  box.append(pre);
}

/* Graphviz is graphviz.js, the copy the worker renders save_graph's files
 * with (its text fetched already when Ag loaded), run here as a classic
 * script. */
let vizReady = null;
async function loadGraphviz() {
  const text = await fetchText("graphviz.js");
  const url = URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
  await new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = url;
    script.onload = resolve;
    script.onerror = () => reject(new Error("cannot run graphviz.js"));
    document.head.append(script);
  });
  return self.agGraphviz();
}

async function drawGraph(box, dot) {
  if (!vizReady) vizReady = loadGraphviz();
  const viz = await vizReady;
  const svg = viz.renderSVGElement(dot);
  svg.classList.add("graph");
  box.append(svg);
}

let chartReady = null;
async function drawFigure(box, figure) {
  if (!chartReady) chartReady = import("chart.js/auto").then((m) => m.default);
  const Chart = await chartReady;
  const image = figure.series.find((s) => s.kind === "image");
  if (image) return drawImage(box, figure, image);
  const canvas = document.createElement("canvas");
  canvas.className = "plot";
  box.append(canvas);
  const labelled = figure.series.some((s) => s.label !== null);
  const legend = figure.legend === null ? labelled : figure.legend;
  new Chart(canvas, {
    type: "scatter",
    data: { datasets: figure.series.map(dataset) },
    options: {
      animation: false,
      responsive: false,
      plugins: {
        title: { display: figure.title !== null, text: figure.title || "" },
        legend: { display: legend },
      },
      scales: {
        x: { type: "linear", title: { display: figure.xlabel !== null, text: figure.xlabel || "" } },
        y: { type: "linear", title: { display: figure.ylabel !== null, text: figure.ylabel || "" } },
      },
    },
  });
}

const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"];
let paletteIndex = 0;

/* One series of the plot module as a Chart.js dataset. */
function dataset(s) {
  const color = s.color || PALETTE[paletteIndex++ % PALETTE.length];
  const base = { label: s.label || "", borderColor: color, backgroundColor: color };
  if (s.kind === "line") {
    return { ...base, data: points(s.x, s.y), showLine: true, pointRadius: 0, borderWidth: 2 };
  }
  if (s.kind === "hist") {
    /* bars as a filled step line: each bin's left and right edge at its count */
    const data = [];
    s.x.forEach((center, i) => {
      data.push({ x: center - s.width / 2, y: 0 }, { x: center - s.width / 2, y: s.y[i] },
        { x: center + s.width / 2, y: s.y[i] }, { x: center + s.width / 2, y: 0 });
    });
    return { ...base, data, showLine: true, pointRadius: 0, fill: "origin", backgroundColor: color + "80" };
  }
  const scatter = { ...base, data: points(s.x, s.y), pointRadius: 3 };
  if (s.values) scatter.pointBackgroundColor = s.values.map(colorScale(s.values));
  return scatter;
}

function points(xs, ys) {
  return xs.map((x, i) => ({ x, y: ys[i] }));
}

/* Values to colours from dark blue to yellow, as gnuplot's default palette. */
function colorScale(values) {
  const finite = values.filter((v) => v !== null);
  const lo = Math.min(...finite), hi = Math.max(...finite);
  return (v) => {
    const t = hi > lo && v !== null ? (v - lo) / (hi - lo) : 0.5;
    return `hsl(${240 - 180 * t}, 80%, ${30 + 30 * t}%)`;
  };
}

/* plot.image(t): the matrix as grey levels, one cell a pixel, scaled up. */
function drawImage(box, figure, image) {
  const rows = image.rows, h = rows.length, w = h ? rows[0].length : 0;
  const values = rows.flat().filter((v) => v !== null);
  const lo = Math.min(...values), hi = Math.max(...values);
  const canvas = document.createElement("canvas");
  canvas.width = w;
  canvas.height = h;
  canvas.className = "plot image";
  const ctx = canvas.getContext("2d");
  const pixels = ctx.createImageData(w, h);
  rows.forEach((row, y) => row.forEach((v, x) => {
    const level = hi > lo && v !== null ? Math.round(255 * (v - lo) / (hi - lo)) : 128;
    pixels.data.set([level, level, level, 255], 4 * (y * w + x));
  }));
  ctx.putImageData(pixels, 0, 0);
  if (figure.title !== null) {
    const title = document.createElement("div");
    title.textContent = figure.title;
    box.append(title);
  }
  box.append(canvas);
}
