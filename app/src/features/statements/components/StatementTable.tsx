import type { ReactNode } from "react";

/** A statement's table: scrolls inside its card on a phone (with a visible hint), prints whole. */
export function StatementTable({ caption, head, rows, empty, testId }: { caption: string; head: string[]; rows: ReactNode[][]; empty: string; testId: string }) {
  return (
    <section className="card stack" aria-label={caption} data-testid={testId}>
      <h2>{caption}</h2>
      {rows.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <>
          <p className="small muted statement-scroll-hint">Scroll the table sideways to see every column.</p>
          <div className="table-wrap" tabIndex={0} role="region" aria-label={`${caption} (scrolls)`}>
            <table className="table statement-table">
              <thead>
                <tr>
                  {head.map((h) => (
                    <th key={h} scope="col">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((cells, i) => (
                  <tr key={i}>
                    {cells.map((c, j) => (
                      <td key={j}>{c}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
