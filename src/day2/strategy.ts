/** The DaemonSet update strategy as the controller resolves it; defined with the scheduling semantics in `coverage/`. */
export { ResolvedStrategy, StrategyType, resolveStrategy, scaledValue } from '../coverage/strategy';
