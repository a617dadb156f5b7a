/** Four figures in a row (the marketplace's and the portfolio's tiles). */
export function StatTiles({ tiles, label }: { tiles: { label: string; value: string }[]; label: string }) {
  return (
    <section className="mk-tiles" aria-label={label}>
      {tiles.map((t) => (
        <div className="card stat" key={t.label} data-testid={`tile-${t.label.toLowerCase().replace(/[^a-z]+/g, "-")}`}>
          <div className="stat__label">{t.label}</div>
          <div className="stat__value">{t.value}</div>
        </div>
      ))}
    </section>
  );
}
