/**
 * The coverage functions that synthesis calls, loading the coverage modules on the first call: requiring the library
 * loads no coverage analysis; synthesizing a node service with coverage targets (or pools with a node budget) does.
 */

type Compile = typeof import('./compile');
type Evaluate = typeof import('./evaluate');
type NodeTax = typeof import('./node-tax');

let compile: Compile | undefined;
let evaluation: Evaluate | undefined;
let tax: NodeTax | undefined;

const compiler = (): Compile => (compile ??= require('./compile') as Compile);
const evaluator = (): Evaluate => (evaluation ??= require('./evaluate') as Evaluate);
const taxes = (): NodeTax => (tax ??= require('./node-tax') as NodeTax);

/** {@link import('./compile').compileWorkload}, loaded on first use. */
export const compileWorkload: Compile['compileWorkload'] = (...args) => compiler().compileWorkload(...args);
/** {@link import('./compile').compileNode}, loaded on first use. */
export const compileNode: Compile['compileNode'] = (...args) => compiler().compileNode(...args);
/** {@link import('./evaluate').evaluate}, loaded on first use. */
export const evaluate: Evaluate['evaluate'] = (...args) => evaluator().evaluate(...args);
/** {@link import('./evaluate').checkPodOnNode}, loaded on first use. */
export const checkPodOnNode: Evaluate['checkPodOnNode'] = (...args) => evaluator().checkPodOnNode(...args);
/** {@link import('./node-tax').nodeTax}, loaded on first use. */
export const nodeTax: NodeTax['nodeTax'] = (...args) => taxes().nodeTax(...args);
/** {@link import('./node-tax').describeShares}, loaded on first use. */
export const describeShares: NodeTax['describeShares'] = (...args) => taxes().describeShares(...args);
