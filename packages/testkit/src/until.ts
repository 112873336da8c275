/**
 * Wait for a condition by polling it every 10 ms (a test waits for an event it cannot subscribe
 * to: a file another process writes, a process ending). Throws after `tries` polls.
 */
export async function until(ok: () => boolean | Promise<boolean>, tries = 1500): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await ok()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`condition not reached after ${tries} polls`);
}
