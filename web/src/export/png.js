// A figure's SVG file drawn into a PNG.
import { element } from '../dom.js';

const PNG_SCALE = 2; // twice the size on screen: sharp on high-density screens and in print

// The SVG drawn onto a canvas (an image from a data: URL: allowed by the
// page's img-src, and it leaves the canvas readable) and saved as PNG.
// svg: { text, width, height } from figureSvg().
export function svgToPng({ text, width, height }, scale = PNG_SCALE) {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => {
      const canvas = element('canvas', { width: Math.round(width * scale), height: Math.round(height * scale) });
      const context = canvas.getContext('2d');
      context.imageSmoothingEnabled = false; // the heatmap's cells stay sharp
      context.drawImage(image, 0, 0, canvas.width, canvas.height);
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('PNG: the browser made no image'))), 'image/png');
    };
    image.onerror = () => reject(new Error('PNG: the SVG could not be drawn'));
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  });
}
