import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
for (const f of process.argv.slice(2)) {
  const r = await build({ entryPoints: [f], bundle: true, minify: true, platform: 'browser', format: 'esm', write: false, metafile: true });
  const t = r.outputFiles[0].contents;
  console.log(f, t.length, gzipSync(t).length);
  const m = Object.values(r.metafile.outputs)[0].inputs;
  console.log(Object.entries(m).sort((a,b)=>b[1].bytesInOutput-a[1].bytesInOutput).slice(0,15).map(([k,v])=>k+' '+v.bytesInOutput).join('\n'));
}
