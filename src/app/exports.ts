// Downloads made in the page, with no request leaving it: a chart's <svg> as an SVG file or
// as a PNG (drawn on a canvas from a data: URL — the CSP allows img-src data:), text files
// (CSV, JSON) and Blobs (the worker's blkparse text), each through a blob: URL and <a download>.

/** Save a Blob under a file name (a temporary blob: URL, revoked after the click). */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadText(text: string, fileName: string, type: string): void {
  downloadBlob(new Blob([text], { type }), fileName);
}

/** The chart as a standalone SVG document (its colours and fonts are attributes already);
 * `marks`: the SVG markup of what the page draws on a canvas, put in its `[data-marks]`. */
export function svgText(svg: SVGSVGElement, marks?: string): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const slot = clone.querySelector('[data-marks]');
  if (slot && marks) {
    slot.innerHTML = marks;
    slot.removeAttribute('data-marks');
  }
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const box = svg.viewBox.baseVal;
  clone.setAttribute('width', String(box.width));
  clone.setAttribute('height', String(box.height));
  // Interaction-only parts stay in the page.
  for (const el of clone.querySelectorAll('[data-export="omit"]')) el.remove();
  clone.removeAttribute('tabindex');
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(clone);
}

export function downloadSvg(svg: SVGSVGElement, fileName: string, marks?: string): void {
  downloadText(svgText(svg, marks), fileName, 'image/svg+xml');
}

/** Render the SVG on a canvas at `scale` × its viewBox and return a PNG Blob. */
export async function pngBlob(svg: SVGSVGElement, marks?: string, scale = 2): Promise<Blob> {
  const text = svgText(svg, marks);
  const box = svg.viewBox.baseVal;
  const img = new Image();
  img.width = box.width;
  img.height = box.height;
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  // onload, not img.decode(): Chromium's decode() of a large SVG image rejects at times
  // ("cannot be decoded") though the same image loads and draws
  await new Promise<void>((resolve, reject) => {
    img.onload = () => resolve();
    img.onerror = () => reject(new Error('the chart could not be drawn as an image'));
    img.src = `data:image/svg+xml;base64,${btoa(binary)}`;
  });
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(box.width * scale);
  canvas.height = Math.round(box.height * scale);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas for the PNG export');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'),
  );
}

export async function downloadPng(
  svg: SVGSVGElement,
  fileName: string,
  marks?: string,
): Promise<void> {
  downloadBlob(await pngBlob(svg, marks), fileName);
}
