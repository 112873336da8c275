/** shared's `lazy`, for this package's modules (one place resolves the path to it). */
export { lazy } from '@holic512/shared/lib/lazy';
