/** A JSON GET as a well-behaved client: a 503 (load shed) waits its Retry-After and asks again, up to 10 times. */
export async function getJson(url: string, key: string): Promise<Record<string, unknown>> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, { headers: { 'x-api-key': key } });
    if (res.status === 200) return (await res.json()) as Record<string, unknown>;
    if (res.status !== 503 || attempt === 10) throw new Error(`GET ${url} answered ${res.status}`);
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
  }
}
