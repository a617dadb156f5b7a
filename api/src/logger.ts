import { pino, type DestinationStream, type Logger } from "pino";

/** Request logs never carry bearer tokens, cookies or passwords. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: ["req.headers.authorization", "req.headers.cookie", "res.headers['set-cookie']", "*.password", "*.newPassword", "*.currentPassword"], censor: "[redacted]" },
  };
  return destination ? pino(options, destination) : pino(options);
}
