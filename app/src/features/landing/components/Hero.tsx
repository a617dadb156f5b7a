import { Link } from "react-router";

export function Hero() {
  const scrollToSteps = () => document.getElementById("how-it-works")?.scrollIntoView({ behavior: "smooth" });
  return (
    <section className="hero">
      <div className="container hero__grid">
        <div>
          <span className="chip">Rates from 3.5% APR · Decisions within 24 hours</span>
          <h1 className="hero__title">
            Loans that live <span className="gradient-text">on-chain</span>, minted as NFTs
          </h1>
          <p className="hero__lead">Borrow with a transparent, auditable loan note, or invest in NFT-backed loans on an open marketplace. No prepayment penalty — paying early burns the NFT.</p>
          <div className="row gap">
            <Link to="/register" className="btn btn--primary btn--lg">
              Get Started Free
            </Link>
            <button type="button" className="btn btn--ghost btn--lg" onClick={scrollToSteps}>
              <span aria-hidden="true">▶</span> Watch Demo
            </button>
          </div>
          <ul className="hero__points">
            <li>98% approval rate</li>
            <li>About 5 minutes to apply</li>
            <li>Zero fees for early adopters</li>
          </ul>
        </div>
        <div className="hero__card-wrap" aria-label="Example loan note">
          <div className="hero-card">
            <div className="hero-card__top">
              <span className="hero-card__label">Loan Note · example</span>
              <span className="badge badge--success">
                <span className="dot" /> Active
              </span>
            </div>
            <p className="hero-card__amount">Your loan, as an NFT</p>
            <div className="hero-card__rows">
              <div>
                <span>Principal</span>
                <strong>Your amount</strong>
              </div>
              <div>
                <span>Rate</span>
                <strong>From 3.5% APR</strong>
              </div>
              <div>
                <span>Term</span>
                <strong>1–360 months</strong>
              </div>
              <div>
                <span>Payoff</span>
                <strong>Early, no penalty</strong>
              </div>
            </div>
            <div className="hero-card__bar">
              <span />
            </div>
            <p className="hero-card__foot">ERC-721 loan note · repayments follow the holder</p>
          </div>
        </div>
      </div>
    </section>
  );
}
