// Compiled by tsc --noEmit (npm run build): the declarations type the
// README's uses, and refuse wrong ones.
import { encode, decode, countTokens, convert, init, type IsoldaError } from '../index.js';

export async function uses(): Promise<number> {
  await init();
  const doc: string = await encode('<urn:a> <urn:b> "c" .', { format: 'nt', spec: '0.4', budget: 100, noTypes: true, 'inline-bnodes': true });
  const nq: string = await decode(doc, { to: 'turtle' });
  const nt: string = await convert(nq, { from: 'ttl', to: 'ntriples' });
  try {
    await decode('@@@');
  } catch (e) {
    const err = e as IsoldaError;
    return (err.line ?? 0) + (err.column ?? 0) + nt.length;
  }
  // @ts-expect-error convert needs to
  await convert(nq, {});
  // @ts-expect-error the budget is a number
  await encode(doc, { budget: '100' });
  return countTokens(doc, 'cl100k_base');
}
