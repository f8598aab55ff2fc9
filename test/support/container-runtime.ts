import { getContainerRuntimeClient } from 'testcontainers';

/** Why testcontainers cannot run here (no Docker engine, only a client), or null when it can. */
export async function whyContainersUnavailable(): Promise<string | null> {
  try {
    await getContainerRuntimeClient();
    return null;
  } catch (e) {
    return `no container runtime for testcontainers (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
  }
}
