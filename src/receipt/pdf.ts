/**
 * The receipt as a one-page A4 PDF, laid out with pdf-lib (loaded only here, on the first
 * `receipt()` call). The text is real text in an embedded font, so a reader can search and copy
 * it; the QR code is drawn as vector squares from the project's own QR symbol.
 */
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, type PDFFont, type PDFPage, rgb } from 'pdf-lib';
import { isDark, qrMatrix } from '../qr/matrix.ts';
import type { ReceiptLine, ReceiptText } from './fields.ts';
import { receiptFonts } from './font.ts';

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const LABEL_WIDTH = 180;
const TEXT_SIZE = 10.5;
const LEADING = 16;
const MODULE = 4;
const GREY = rgb(0.35, 0.35, 0.35);

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** Lays out `text` on one page; resolves to the PDF file's bytes. */
export async function renderReceipt(text: ReceiptText): Promise<Uint8Array> {
  // Without updateMetadata the file carries no creation time: the same record gives the same bytes.
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(fontkit);
  const faces = await receiptFonts();
  const fonts: Fonts = {
    regular: await doc.embedFont(faces.regular, { subset: true }),
    bold: await doc.embedFont(faces.bold, { subset: true }),
  };
  doc.setTitle(text.title);
  doc.setProducer('instant-payments');
  doc.setLanguage('pt-BR');
  const page = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - MARGIN - 18;
  page.drawText(text.title, { x: MARGIN, y, size: 18, font: fonts.bold });
  y -= 30;
  y = drawLines(page, fonts, text.lines, y);
  for (const section of text.sections) {
    y -= 10;
    page.drawText(section.heading, { x: MARGIN, y, size: 12.5, font: fonts.bold });
    page.drawLine({
      start: { x: MARGIN, y: y - 5 },
      end: { x: PAGE.width - MARGIN, y: y - 5 },
      thickness: 0.5,
      color: GREY,
    });
    y = drawLines(page, fonts, section.lines, y - 22);
  }
  drawQr(page, fonts, text.qr, y - 12);
  return doc.save();
}

/** Label on the left, value wrapped on the right; returns the next line's baseline. */
function drawLines(page: PDFPage, fonts: Fonts, lines: readonly ReceiptLine[], top: number): number {
  let y = top;
  const valueWidth = PAGE.width - 2 * MARGIN - LABEL_WIDTH;
  for (const { label, value } of lines) {
    page.drawText(label, { x: MARGIN, y, size: TEXT_SIZE, font: fonts.bold, color: GREY });
    for (const row of wrap(value, fonts.regular, valueWidth)) {
      page.drawText(row, { x: MARGIN + LABEL_WIDTH, y, size: TEXT_SIZE, font: fonts.regular });
      y -= LEADING;
    }
  }
  return y;
}

/** Words onto rows no wider than `width`; a word longer than a row is cut. */
function wrap(value: string, font: PDFFont, width: number): string[] {
  const fits = (s: string) => font.widthOfTextAtSize(s, TEXT_SIZE) <= width;
  const rows: string[] = [];
  let row = '';
  for (const word of value.split(/\s+/).filter((w) => w !== '')) {
    const next = row === '' ? word : `${row} ${word}`;
    if (fits(next)) {
      row = next;
      continue;
    }
    if (row !== '') rows.push(row);
    row = word;
    while (!fits(row)) {
      let cut = row.length - 1;
      while (cut > 1 && !fits(row.slice(0, cut))) cut--;
      rows.push(row.slice(0, cut));
      row = row.slice(cut);
    }
  }
  rows.push(row);
  return rows;
}

/** The QR code of `content` centred under the text, its caption beneath. */
function drawQr(page: PDFPage, fonts: Fonts, content: string, top: number): void {
  const { symbol, margin } = qrMatrix(content, { margin: 4, scale: 1 });
  const side = (symbol.size + 2 * margin) * MODULE;
  const left = (PAGE.width - side) / 2;
  const bottom = top - side;
  page.drawRectangle({ x: left, y: bottom, width: side, height: side, color: rgb(1, 1, 1) });
  const origin = { x: left + margin * MODULE, y: top - margin * MODULE };
  for (let y = 0; y < symbol.size; y++) {
    // One rectangle per run of dark modules in a row.
    for (let x = 0; x < symbol.size; x++) {
      if (!isDark(symbol, x, y)) continue;
      const start = x;
      while (x + 1 < symbol.size && isDark(symbol, x + 1, y)) x++;
      const width = (x - start + 1) * MODULE;
      page.drawRectangle({ x: origin.x + start * MODULE, y: origin.y - (y + 1) * MODULE, width, height: MODULE });
    }
  }
  const caption = 'QR code do ID fim a fim';
  const width = fonts.regular.widthOfTextAtSize(caption, 9);
  page.drawText(caption, { x: (PAGE.width - width) / 2, y: bottom - 12, size: 9, font: fonts.regular, color: GREY });
}
