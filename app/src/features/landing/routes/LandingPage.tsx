import type { ReactNode } from "react";
import { Link } from "react-router";
import { Hero } from "../components/Hero";
import { Faq } from "../components/Faq";
import { FEATURES, STATS, STEPS } from "../components/content";

/** The public landing page; the contact section is composed in by the route table. */
export function LandingPage({ contact }: { contact?: ReactNode }) {
  return (
    <div className="landing">
      <Hero />

      <section className="section" id="features">
        <div className="container">
          <div className="section__head">
            <span className="eyebrow">Why LoanMint</span>
            <h2>Lending you can verify</h2>
          </div>
          <div className="grid-4">
            {FEATURES.map((f) => (
              <article key={f.title} className="card feature">
                <span className="feature__icon" aria-hidden="true">
                  {f.icon}
                </span>
                <h3>{f.title}</h3>
                <p className="muted">{f.text}</p>
              </article>
            ))}
          </div>
        </div>
      </section>

      <section className="section section--soft" id="how-it-works">
        <div className="container">
          <div className="section__head">
            <span className="eyebrow">How it works</span>
            <h2>Three steps to your loan</h2>
          </div>
          <ol className="steps">
            {STEPS.map((s, i) => (
              <li key={s.title} className="card step">
                <span className="step__num">{i + 1}</span>
                <h3>{s.title}</h3>
                <p className="muted">{s.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="stats-band" aria-label="Platform figures">
        <div className="container grid-4">
          {STATS.map((s) => (
            <div key={s.label} className="stats-band__item">
              <strong>{s.value}</strong>
              <span>{s.label}</span>
            </div>
          ))}
        </div>
      </section>

      <Faq />

      {contact}

      <section className="section">
        <div className="container">
          <div className="cta">
            <div>
              <h2>Ready to get started?</h2>
              <p>Apply in about 5 minutes. No prepayment penalty, zero fees for early adopters.</p>
            </div>
            <Link to="/register" className="btn btn--lg cta__btn">
              Create your free account
            </Link>
          </div>
        </div>
      </section>
    </div>
  );
}
