/**
 * The HTML of Markdown chunks rendered lately, by their source. A
 * virtualised transcript mounts a message again each time it scrolls back
 * into view (or moves when older messages are put before it): its chunks
 * are then not parsed and sanitised again. Bounded: the oldest go first.
 */
export class HtmlCache {
  private readonly map = new Map<string, string>();
  constructor(
    private readonly render: (src: string) => string,
    private readonly max: number,
  ) {}

  get(src: string): string {
    const hit = this.map.get(src);
    if (hit !== undefined) {
      this.map.delete(src); // most recently used last
      this.map.set(src, hit);
      return hit;
    }
    const html = this.render(src);
    this.map.set(src, html);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
    return html;
  }

  get size(): number {
    return this.map.size;
  }
}
