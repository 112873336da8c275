/** The atomic write of the shared package (folder held open, no link followed): see there. */
export { writeFileAtomicSync } from '@holic512/shared/lib/atomic-write';
