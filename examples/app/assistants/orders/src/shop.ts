// The shop's order table and the two processes its MCP server exposes as tools
// (agents.orders.shop.LookupOrder and agents.orders.shop.CancelOrder, see mcps/shop.mcp.yao).

interface Order {
  id: string;
  status: 'processing' | 'shipped' | 'delivered' | 'cancelled';
  items: Array<{ sku: string; qty: number }>;
  total: number;
  carrier?: string;
  eta?: string;
}

const ORDERS: Record<string, Order> = {
  A1001: {
    id: 'A1001',
    status: 'shipped',
    items: [{ sku: 'mug', qty: 2 }],
    total: 24,
    carrier: 'DHL',
    eta: '2026-12-03',
  },
  A1002: { id: 'A1002', status: 'processing', items: [{ sku: 'teapot', qty: 1 }], total: 39.5 },
  A1003: { id: 'A1003', status: 'delivered', items: [{ sku: 'tea sampler', qty: 3 }], total: 27 },
};

/** The order with that id, or `{found: false}` so the model can say so instead of guessing. */
export function LookupOrder(orderId: string) {
  const key = String(orderId ?? '')
    .trim()
    .toUpperCase();
  const order = ORDERS[key];
  return order ? { found: true as const, ...order } : { found: false as const, id: orderId };
}

/** Cancels an order that has not shipped; each call starts from the table above, so tests stay independent. */
export function CancelOrder(orderId: string) {
  const order = LookupOrder(orderId);
  if (!order.found) return { cancelled: false, id: orderId, reason: 'no such order' };
  if (order.status !== 'processing')
    return { cancelled: false, id: order.id, status: order.status, reason: `already ${order.status}` };
  return { cancelled: true, id: order.id, status: 'cancelled' };
}
