// What makes the page installable as an app: dist/manifest.webmanifest and
// its icons (dist/icons/), the lab's logo (the 3 x 3 grid of index.html's
// masthead) drawn here as SVG and as PNG at the sizes browsers ask for. The
// PNGs are rasterised by this file (4 x 4 samples a pixel) and written with
// node's zlib: nothing is downloaded or installed for them.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

export const MANIFEST_FILE = 'manifest.webmanifest';
export const ICON_FOLDER = 'icons';
const PNG_SIZES = [192, 512];
const BACKGROUND = '#1d2330'; // the page's ink: the logo's colours stand out on it
// The logo's squares (x, y, colour) on its 40 x 40 grid, each 11 wide with corners of radius 2.
const YELLOW = '#fde725';
const BLUE = '#3b528b';
const GREEN = '#21918c';
const SQUARES = [
  [2, 2, YELLOW], [15, 2, BLUE], [28, 2, GREEN],
  [2, 15, BLUE], [15, 15, YELLOW], [28, 15, BLUE],
  [2, 28, GREEN], [15, 28, BLUE], [28, 28, YELLOW],
];
const SIDE = 11;
const RADIUS = 2;
// The grid fills the middle 60% of the icon: inside the safe zone of a
// maskable icon (a circle of 80%), so one image serves both purposes.
const GRID_SHARE = 0.6;

export function logoSvg() {
  const offset = (40 / GRID_SHARE - 40) / 2;
  const box = 40 / GRID_SHARE;
  const squares = SQUARES.map(([x, y, fill]) =>
    `<rect x="${x + offset}" y="${y + offset}" width="${SIDE}" height="${SIDE}" rx="${RADIUS}" fill="${fill}"/>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${box} ${box}"><rect width="${box}" height="${box}" fill="${BACKGROUND}"/>${squares}</svg>\n`;
}

const rgb = (colour) => [1, 3, 5].map((start) => parseInt(colour.slice(start, start + 2), 16));

// Whether the point (u, v) of the logo's 40 x 40 grid is inside the square at (x, y).
function insideSquare(u, v, x, y) {
  const dx = Math.max(x + RADIUS - u, 0, u - (x + SIDE - RADIUS));
  const dy = Math.max(y + RADIUS - v, 0, v - (y + SIDE - RADIUS));
  return u >= x && u <= x + SIDE && v >= y && v <= y + SIDE && dx * dx + dy * dy <= RADIUS * RADIUS;
}

// The logo as RGB pixels, size x size.
function logoPixels(size) {
  const SAMPLES = 4;
  const background = rgb(BACKGROUND);
  const colours = SQUARES.map(([, , fill]) => rgb(fill));
  const scale = 40 / (size * GRID_SHARE);
  const origin = (size * (1 - GRID_SHARE)) / 2;
  const pixels = Buffer.alloc(size * size * 3);
  for (let row = 0; row < size; row += 1) {
    for (let column = 0; column < size; column += 1) {
      const sum = [0, 0, 0];
      for (let sy = 0; sy < SAMPLES; sy += 1) {
        for (let sx = 0; sx < SAMPLES; sx += 1) {
          const u = (column + (sx + 0.5) / SAMPLES - origin) * scale;
          const v = (row + (sy + 0.5) / SAMPLES - origin) * scale;
          const hit = SQUARES.findIndex(([x, y]) => insideSquare(u, v, x, y));
          const colour = hit < 0 ? background : colours[hit];
          for (let c = 0; c < 3; c += 1) sum[c] += colour[c];
        }
      }
      for (let c = 0; c < 3; c += 1) pixels[(row * size + column) * 3 + c] = Math.round(sum[c] / (SAMPLES * SAMPLES));
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

// An 8-bit RGB PNG of the logo, size x size.
export function logoPng(size) {
  const pixels = logoPixels(size);
  const rows = Buffer.alloc(size * (size * 3 + 1)); // each row: filter type 0, then its pixels
  for (let row = 0; row < size; row += 1) pixels.copy(rows, row * (size * 3 + 1) + 1, row * size * 3, (row + 1) * size * 3);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter choice, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(rows, { level: 9 })), pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// Writes the manifest and its icons into out/; returns their paths relative to out/.
export async function writeAppManifest(out) {
  await mkdir(path.join(out, ICON_FOLDER), { recursive: true });
  const icons = [];
  for (const size of PNG_SIZES) {
    const file = `${ICON_FOLDER}/logo-${size}.png`;
    await writeFile(path.join(out, file), logoPng(size));
    icons.push({ src: file, sizes: `${size}x${size}`, type: 'image/png', purpose: 'any maskable' });
  }
  const svg = `${ICON_FOLDER}/logo.svg`;
  await writeFile(path.join(out, svg), logoSvg());
  icons.push({ src: svg, sizes: 'any', type: 'image/svg+xml', purpose: 'any' });
  const manifest = {
    name: 'Attention Lab',
    short_name: 'Attention Lab',
    description: 'The attention chapters of Dive into Deep Learning to play with, computed in C++/WebAssembly. 注意力实验室。',
    id: './',
    start_url: './',
    scope: './',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: BACKGROUND,
    icons,
  };
  await writeFile(path.join(out, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return [MANIFEST_FILE, ...icons.map(({ src }) => src)];
}
