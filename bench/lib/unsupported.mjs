/** Thrown by an engine for a question it cannot express: reported as "unsupported", not an error. */
export class Unsupported extends Error {
  constructor(message) {
    super(message);
    this.unsupported = true;
  }
}
