/** pdf.js's worker half (pdfjs-dist ships no types for it); loaded by pdf-text.ts as `globalThis.pdfjsWorker`. */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
