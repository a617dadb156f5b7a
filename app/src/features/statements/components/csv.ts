/** A CSV cell: quoted when it holds a comma, quote or line break, quotes doubled (RFC 4180). */
const cell = (value: string | number | boolean | null) => {
  const text = value === null ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** Sections of rows, a blank line between them; amounts go in as the wire's exact decimal strings. */
export function toCsv(sections: (string | number | boolean | null)[][][]): string {
  return sections.map((rows) => rows.map((row) => row.map(cell).join(",")).join("\r\n")).join("\r\n\r\n") + "\r\n";
}

/** Saves `text` as a file through a temporary link, the one way every browser downloads a blob. */
export function downloadCsv(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
