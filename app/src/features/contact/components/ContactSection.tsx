import { useEffect, useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { CONTACT_MESSAGES, CONTACT_SUBJECTS } from "#domain/schemas/contact";
import { Field } from "../../../components/Field";
import { fieldErrors } from "../../../components/zodErrors";
import { contactRequestSchema, useSendContact } from "../api/sendContact";

type Status = "idle" | "sending" | "sent";
const EMPTY = { name: "", email: "", phone: "", subject: "", message: "" };
export const CONTACT_SENT_MS = 3000;

export function ContactSection() {
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Status>("idle");
  const send = useSendContact();

  // The success panel shows for 3 s, then the cleared form comes back.
  useEffect(() => {
    if (status !== "sent") return;
    const t = setTimeout(() => {
      setForm(EMPTY);
      setStatus("idle");
    }, CONTACT_SENT_MS);
    return () => clearTimeout(t);
  }, [status]);

  const set = (key: keyof typeof EMPTY) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [key]: e.target.value }));
    setErrors((er) => ({ ...er, [key]: "" }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = contactRequestSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setStatus("sending");
    try {
      await send.mutateAsync(parsed.data);
      toast.success(CONTACT_MESSAGES.success);
      setStatus("sent");
    } catch {
      toast.error("Failed to send message. Please try again.");
      setStatus("idle");
    }
  };

  return (
    <section className="section section--soft" id="contact">
      <div className="container contact">
        <div className="contact__intro">
          <span className="eyebrow">Contact</span>
          <h2>Talk to our team</h2>
          <p className="muted">Questions about a loan, KYC, your wallet or a partnership? Send us a message.</p>
          <ul className="contact__facts">
            <li>
              <strong>Response time</strong>
              <span>Within 24 hours</span>
            </li>
            <li>
              <strong>Support hours</strong>
              <span>Mon-Fri 9 AM-6 PM EST</span>
            </li>
          </ul>
        </div>
        <div className="card contact__card">
          {status === "sent" ? (
            <div className="contact__sent" role="status" data-testid="contact-sent">
              <span className="contact__check" aria-hidden="true">
                ✓
              </span>
              <h3>Message sent successfully!</h3>
              <p className="muted">Our support team replies within 24 hours. Please check your email.</p>
            </div>
          ) : (
            <form onSubmit={(e) => void submit(e)} noValidate aria-label="Contact form">
              <div className="form-grid">
                <Field label="Name" name="name" autoComplete="name" value={form.name} onChange={set("name")} error={errors.name} required />
                <Field label="Email" name="email" type="email" autoComplete="email" value={form.email} onChange={set("email")} error={errors.email} required />
                <Field label="Phone (optional)" name="phone" type="tel" autoComplete="tel" value={form.phone} onChange={set("phone")} error={errors.phone} />
                <div className={`field${errors.subject ? " field--error" : ""}`}>
                  <label htmlFor="contact-subject">Subject</label>
                  <select id="contact-subject" name="subject" value={form.subject} onChange={set("subject")} required aria-invalid={Boolean(errors.subject) || undefined}>
                    <option value="">Select a subject</option>
                    {CONTACT_SUBJECTS.map((s) => (
                      <option key={s} value={s}>
                        {s}
                      </option>
                    ))}
                  </select>
                  {errors.subject && (
                    <p className="field__error" role="alert">
                      {errors.subject}
                    </p>
                  )}
                </div>
                <div className={`field span-2${errors.message ? " field--error" : ""}`}>
                  <label htmlFor="contact-message">Message</label>
                  <textarea id="contact-message" name="message" rows={6} value={form.message} onChange={set("message")} required aria-invalid={Boolean(errors.message) || undefined} />
                  {errors.message && (
                    <p className="field__error" role="alert">
                      {errors.message}
                    </p>
                  )}
                </div>
              </div>
              <button type="submit" className="btn btn--primary btn--block contact__submit" disabled={status === "sending"}>
                {status === "sending" ? "Sending Message..." : "Send Message"}
              </button>
            </form>
          )}
        </div>
      </div>
    </section>
  );
}
