/** The sink the text and JSON writers of the coverage report write to. */

/** Collects output and hands it to `write` in chunks of about 1 MiB, so that no report is ever one string. */
export class ChunkedOut {
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly sink: (text: string) => void) {}
  public write(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= 1 << 20) this.flush();
  }
  public flush(): void {
    if (this.parts.length === 0) return;
    this.sink(this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }
}
