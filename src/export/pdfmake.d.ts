/** The part of pdfmake 0.3's server API this app uses (it ships no types; @types/pdfmake is for 0.2). */
declare module 'pdfmake' {
  interface PdfMake {
    addFonts(
      fonts: Record<string, { normal: string; bold: string; italics: string; bolditalics: string }>,
    ): void;
    setUrlAccessPolicy(allowed: (url: string) => boolean): void;
    setLocalAccessPolicy(allowed: (path: string) => boolean): void;
    createPdf(definition: Record<string, unknown>): { getBuffer(): Promise<Uint8Array> };
  }
  const pdfmake: PdfMake;
  export default pdfmake;
}
