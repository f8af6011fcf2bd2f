// L2-regularised logistic regression fitted by Newton's method on standardised features (few features, many rows).

/** Keeps weights finite when the classes separate perfectly. */
export const DEFAULT_L2 = 1e-3;
const MAX_NEWTON_STEPS = 50;
const CONVERGED_STEP = 1e-9;
const MIN_SCALE = 1e-12;

export interface LogisticModel {
  means: number[];
  scales: number[];
  weights: number[];
  bias: number;
}

function standardiser(rows: readonly number[][], width: number): { means: number[]; scales: number[] } {
  const means = new Array<number>(width).fill(0);
  const scales = new Array<number>(width).fill(0);
  for (const row of rows) row.forEach((x, j) => (means[j] = (means[j] as number) + x / rows.length));
  for (const row of rows) row.forEach((x, j) => (scales[j] = (scales[j] as number) + (x - (means[j] as number)) ** 2 / rows.length));
  return { means, scales: scales.map((v) => Math.max(Math.sqrt(v), MIN_SCALE)) };
}

/** Solves a·x = b in place by Gaussian elimination with partial pivoting (a is small and square). */
export function solveLinear(a: number[][], b: number[]): number[] {
  const n = b.length;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    [b[col], b[pivot]] = [b[pivot]!, b[col]!];
    const head = a[col]!;
    for (let r = col + 1; r < n; r++) {
      const row = a[r]!;
      const factor = row[col]! / head[col]!;
      for (let c = col; c < n; c++) row[c] = row[c]! - factor * head[c]!;
      b[r] = b[r]! - factor * b[col]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let sum = b[r]!;
    for (let c = r + 1; c < n; c++) sum -= a[r]![c]! * x[c]!;
    x[r] = sum / a[r]![r]!;
  }
  return x;
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** One Newton step: returns the change to subtract from [weights..., bias]. */
function newtonStep(rows: readonly number[][], labels: readonly number[], beta: readonly number[], l2: number): number[] {
  const d = beta.length;
  const grad = new Array<number>(d).fill(0);
  const hess = Array.from({ length: d }, () => new Array<number>(d).fill(0));
  rows.forEach((row, i) => {
    const x = [...row, 1];
    const p = sigmoid(x.reduce((sum, v, j) => sum + v * beta[j]!, 0));
    const w = p * (1 - p);
    for (let j = 0; j < d; j++) {
      grad[j] = grad[j]! + (p - labels[i]!) * x[j]!;
      for (let k = 0; k < d; k++) hess[j]![k] = hess[j]![k]! + w * x[j]! * x[k]!;
    }
  });
  // The bias (last) is not penalised; the ridge on the others also keeps the Hessian invertible.
  for (let j = 0; j < d - 1; j++) {
    grad[j] = grad[j]! + l2 * rows.length * beta[j]!;
    hess[j]![j] = hess[j]![j]! + l2 * rows.length;
  }
  hess[d - 1]![d - 1] = hess[d - 1]![d - 1]! + MIN_SCALE;
  return solveLinear(hess, grad);
}

export function fitLogistic(rows: readonly number[][], labels: readonly number[], l2 = DEFAULT_L2): LogisticModel {
  const width = rows[0]?.length ?? 0;
  const { means, scales } = standardiser(rows, width);
  const standard = rows.map((row) => row.map((x, j) => (x - means[j]!) / scales[j]!));
  let beta = new Array<number>(width + 1).fill(0);
  for (let step = 0; step < MAX_NEWTON_STEPS; step++) {
    const delta = newtonStep(standard, labels, beta, l2);
    beta = beta.map((b, j) => b - delta[j]!);
    if (Math.max(...delta.map(Math.abs)) < CONVERGED_STEP) break;
  }
  return { means, scales, weights: beta.slice(0, width), bias: beta[width]! };
}

/** The model's log-odds for one feature row. */
export function logOdds(model: LogisticModel, row: readonly number[]): number {
  return row.reduce((sum, x, j) => sum + ((x - model.means[j]!) / model.scales[j]!) * model.weights[j]!, model.bias);
}
