// Functions of the expense assistant: its hooks and tools call these.

export enum Level {
  Low = 1,
  High = 2,
}

interface Expense {
  id: number;
  amount: number;
  owner: string;
}

/** Whether the assistant can serve this user at all. */
function SystemReady(ctx: any): boolean {
  return Boolean(ctx?.User?.ID);
}

/** Creates an expense owned by the context's user. */
function Setup(ctx: any, data: { id: number; amount: number }): Expense {
  return { id: data.id, amount: data.amount, owner: ctx.User.ID };
}

function Total(items: Expense[]): number {
  return items.reduce((sum, item) => sum + item.amount, 0);
}

function LevelOf(amount: number): Level {
  return amount >= 1000 ? Level.High : Level.Low;
}
