import { Fragment } from "react";
import { Link } from "react-router";

/** The app's own pages the assistant names in its answers, e.g. "(/kyc)". */
const APP_PATH = /(\/(?:loans\/request|loans\/my-loans|loans|kyc|marketplace|portfolio|profile|nft-transfer|transactions|dashboard|register|login))(?![\w/-])/g;

/** An answer's text with the app paths it names turned into links; everything else stays plain text. */
export function MessageText({ text, linkify }: { text: string; linkify: boolean }) {
  if (!linkify) return <>{text}</>;
  const parts = text.split(APP_PATH);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <Link key={i} to={part}>
            {part}
          </Link>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}
