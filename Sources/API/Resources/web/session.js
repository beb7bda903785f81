// A login to the mytaxi API shared by the passenger's and the driver's app:
// the bearer token kept in the browser's storage under the app's own key
// (so a reload keeps the login), calls that turn an error answer into an
// Error carrying the service's own words (the problem's `detail`), and the
// push socket (/v1/push) that opens again by itself after a drop, with a
// growing pause, and hands each notification over once (ids only grow: one
// not above the highest seen is a repeat after a reconnect); and the service's
// clock (GET /v1/clock), on which both apps count down.

/** An API error: the HTTP status and the problem document the service sent. */
export class APIError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || `the service answered ${status}`);
    this.status = status;
    this.problem = problem || {};
  }
}

/** A login kept under `storageKey`; `onLoggedOut` runs when the service no longer takes the token. */
export class Session {
  constructor(storageKey, onLoggedOut) {
    this.storageKey = storageKey;
    this.onLoggedOut = onLoggedOut;
    const saved = JSON.parse(localStorage.getItem(storageKey) || "null");
    this.token = saved ? saved.token : null;
    this.username = saved ? saved.username : null;
    this.socket = null;
    this.highestId = 0;
    this.retryDelay = 1000;
    this.closing = false;
  }

  get loggedIn() {
    return this.token !== null;
  }

  /** Logs in as `username`; the answer's role must be `role`. */
  async logIn(username, password, role) {
    const answer = await this.call("POST", "/v1/sessions", { username, password }, { anonymous: true });
    if (answer.role !== role) {
      this.token = answer.token;
      await this.call("DELETE", "/v1/sessions/current").catch(() => {});
      this.token = null;
      throw new APIError(403, { detail: `${username} is a ${answer.role}'s account; this app is for a ${role}` });
    }
    this.token = answer.token;
    this.username = username;
    localStorage.setItem(this.storageKey, JSON.stringify({ token: this.token, username }));
    return answer;
  }

  /** Logs out on the service (when it still knows the token) and here. */
  async logOut() {
    this.closePush();
    if (this.token) await this.call("DELETE", "/v1/sessions/current").catch(() => {});
    this.forget();
  }

  forget() {
    this.token = null;
    this.username = null;
    localStorage.removeItem(this.storageKey);
  }

  /** One API call; the parsed JSON answer (null for 204), or an APIError. */
  async call(method, path, body, { anonymous = false, idempotent = false } = {}) {
    const headers = {};
    if (this.token && !anonymous) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (idempotent) headers["Idempotency-Key"] = crypto.randomUUID();
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    const json = text && (response.headers.get("Content-Type") || "").includes("json") ? JSON.parse(text) : null;
    if (!response.ok) {
      if (response.status === 401 && this.token && !anonymous) {
        this.forget();
        this.closePush();
        if (this.onLoggedOut) this.onLoggedOut();
      }
      throw new APIError(response.status, json);
    }
    return json;
  }

  /**
   * Opens the push socket: `onMessage` gets each message (the first is
   * `{"kind":"state"}`), `onStatus` true when it is open, false while it is away.
   */
  openPush(onMessage, onStatus) {
    this.closing = false;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/v1/push?token=${encodeURIComponent(this.token)}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retryDelay = 1000;
      onStatus(true);
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (typeof message.id === "number") {
        if (message.id <= this.highestId) return;
        this.highestId = message.id;
      }
      onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      onStatus(false);
      if (this.closing || !this.token) return;
      if (event.code >= 4001 && event.code <= 4005) {
        this.forget();
        if (this.onLoggedOut) this.onLoggedOut();
        return;
      }
      setTimeout(() => this.token && !this.closing && this.openPush(onMessage, onStatus), this.retryDelay);
      this.retryDelay = Math.min(this.retryDelay * 2, 30000);
    });
  }

  closePush() {
    this.closing = true;
    if (this.socket) this.socket.close();
    this.socket = null;
  }
}

/**
 * The service's time, for both apps' countdowns and timestamps: the service may run on a simulated clock, so
 * its "now" and its rate (service seconds a real second) are read from GET /v1/clock and carried forward by the
 * browser's clock. The service told its time somewhere between asking and hearing back, so of the readings the
 * one that came back soonest is kept (under a fast rate a slow answer would put a countdown seconds off), unless
 * it is old enough that the service may have been restarted since.
 */
export class ServiceClock {
  static readingLifetimeMs = 600000;

  /** A clock read through `session` (GET /v1/clock needs no login); the browser's time until the first reading. */
  constructor(session) {
    this.session = session;
    this.serviceMs = Date.now();
    this.browserMs = Date.now();
    this.rate = 1;
    this.roundTripMs = Infinity;
  }

  /** One reading, kept when its round trip is the shortest yet or the kept one is old. */
  async read() {
    const asked = Date.now();
    const answer = await this.session.call("GET", "/v1/clock", undefined, { anonymous: true });
    const answered = Date.now();
    const roundTripMs = answered - asked;
    if (roundTripMs > this.roundTripMs && answered - this.browserMs < ServiceClock.readingLifetimeMs) return;
    this.roundTripMs = roundTripMs;
    this.browserMs = (asked + answered) / 2;
    this.serviceMs = Date.parse(answer.now);
    this.rate = answer.rate || 1;
  }

  /** Reads the clock again every `everyMs` (failures kept quiet: the last reading goes on); the interval's id. */
  keepReading(everyMs = 60000) {
    return setInterval(() => this.read().catch(() => {}), everyMs);
  }

  /** The service's time now, in milliseconds since the epoch. */
  now() {
    return this.serviceMs + (Date.now() - this.browserMs) * this.rate;
  }

  /** The real milliseconds that `serviceSeconds` of the service's time take. */
  realMs(serviceSeconds) {
    return (serviceSeconds * 1000) / this.rate;
  }
}

/** Sets the text of the element with id `id`. */
export function setText(id, text) {
  document.getElementById(id).textContent = text;
}

/** A duration in seconds as people say it: "45 s", "3 min", "1 h 05 min". */
export function spokenDuration(seconds) {
  if (seconds === null || seconds === undefined) return "unknown";
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  const minutes = Math.round(whole / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}
