import { wireOrderSchema, type WireOrder } from "#domain/wire/order";
import { http, type Envelope } from "../http";

/** POST /orders {kind, message, signature}: the API checks the signature, the signer and the note, and keeps the order. */
export async function submitOrder(body: { kind: WireOrder["kind"]; message: Record<string, string>; signature: string }): Promise<WireOrder> {
  const { data } = await http.post<Envelope<unknown>>("/orders", body);
  return wireOrderSchema.parse(data.data);
}
