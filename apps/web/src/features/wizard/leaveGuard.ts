/**
 * A screen with unsaved work registers a guard here; the step bar asks it before it saves the next
 * wizard step, so that cancelling leaves both the page and the saved step where they were.
 */
type Guard = () => Promise<boolean>;

let current: Guard | undefined;

/** Registers the guard of the screen on show; answers the function that removes it. */
export function setLeaveGuard(guard: Guard): () => void {
  current = guard;
  return () => {
    if (current === guard) current = undefined;
  };
}

/** True when there is no guard or the user agreed to leave. */
export async function canLeave(): Promise<boolean> {
  return current ? current() : true;
}
