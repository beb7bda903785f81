// The passenger's app (app.html, served at /app): the screens a passenger
// goes through, on a phone first and on a desktop as well.
//
// - Signing up (POST /v1/passengers, the rules a 400 names shown at their
//   fields), "check your e-mail", and the e-mail's link, which opens
//   /app#confirm=TOKEN: the app confirms the address itself
//   (POST /v1/passengers/confirmations); the token can be pasted by hand too.
//   Then the login, as a passenger only (session.js keeps it across reloads).
// - A forgotten password: "Forgot password?" asks for the address
//   (POST /v1/password-resets, whose answer is the same whether or not an
//   account has it); the e-mail's link opens /app#reset=TOKEN, where the new
//   password, typed twice, is set (POST /v1/password-resets/confirmations)
//   and the login follows. A used or expired link leads back to the request.
// - Calling a taxi now: a map (Leaflet, drawn from the service's own road
//   and zone data, no tiles from elsewhere) on which a tap names the point
//   (GET /v1/places/reverse), address fields with suggestions
//   (address-field.js), "my location", the expected wait, the zone's
//   busiest hours of the day and a meeting point's walk before asking
//   (GET /v1/waits), then POST /v1/rides; an address the service is not
//   sure of comes back with candidates, offered as buttons. With a
//   destination the ride can be shared ("Share the ride": `shared: true`):
//   the ride's `shared` terms are then shown with it (the most it may add to
//   the trip alone, the latest pickup); a shared request may be given a taxi
//   at once, already on its way with other riders.
// - Following the ride: the push socket (GET /v1/push) drives the screen,
//   its first message restoring it after a reload (or telling, with no ride
//   open, that the ride ended while the socket was away: then it is read once,
//   GET /v1/rides/{id}, for its outcome). Every step is a notification
//   (queued, offer, taxi_assigned, eta_changed, taxi_arrived,
//   passenger_aboard, ride_completed, client_missing, ride_cancelled): the
//   ride is not polled. A queued request shows its expected wait and counts
//   down to its `confirmBy` on the service's clock; an assigned taxi is drawn
//   where it reports (the ride's `taxi`, then each `taxi_position` message)
//   with its route to the pickup (GET /v1/rides/{id}/route).
// - Reservations (2 to 48 h ahead, the window shown and checked in the form),
//   the history of 31 days, and the profile: the password changed, the e-mail
//   address changed (PUT /v1/account/email: the account keeps its address
//   until the link sent to the new one is opened, which confirms it through
//   #confirm= as a new account's), "Log out".
//
// The service may run on a simulated clock (GET /v1/clock: its time and
// rate): every countdown and time window is reckoned on the service's time,
// from the browser's clock and the rate. Whatever the service sends (labels,
// ids, the problems' words) is written as text, never as HTML; the page's
// policy runs no inline code, so every style is a class of app.css.
import { Session, APIError, ServiceClock, setText, spokenDuration } from "./session.js";
import { AddressField } from "./address-field.js";

const midtown = [40.754, -73.984];
const routeRefreshMs = 15000;
const reservationEarliestMs = 2 * 3600 * 1000;
const reservationLatestMs = 48 * 3600 * 1000;
const historyDays = 31;
const statusOrder = ["queued", "offered", "assigned", "arrived", "aboard"];
const outcomeWords = {
  completed: "Completed",
  client_missing: "The driver did not find you",
  cancelled: "Cancelled",
  not_confirmed: "Not confirmed in time",
  reservation_cancelled: "Booking cancelled",
  outside_zones: "Outside the service area",
};
const reservationStatusWords = { booked: "Booked", awaitingTaxi: "Looking for a taxi", allocated: "Taxi allocated" };

const session = new Session("mytaxi.app.session", () => leave("Your login has ended: please log in again."));

// The service's time (it may run on a simulated clock): every countdown and booking window is reckoned on it.
const clock = new ServiceClock(session);

/** Labels of places this browser booked, by ride or reservation id: the list and the history read them back. */
const labels = {
  key: "mytaxi.app.labels",
  all() {
    return JSON.parse(localStorage.getItem(this.key) || "{}");
  },
  get(id) {
    return this.all()[id] || null;
  },
  keep(id, pickup, destination) {
    const all = this.all();
    all[id] = { pickup, destination };
    const ids = Object.keys(all);
    for (const old of ids.slice(0, Math.max(0, ids.length - 200))) delete all[old];
    localStorage.setItem(this.key, JSON.stringify(all));
  },
};

// Names of points already asked for (GET /v1/places/reverse), by rounded coordinates.
const placeNames = new Map();

/** A point's name: the nearest address or street, else its coordinates. */
function placeName(point) {
  const key = `${point.lon.toFixed(5)},${point.lat.toFixed(5)}`;
  if (!placeNames.has(key)) {
    placeNames.set(key, session.call("GET", `/v1/places/reverse?lon=${point.lon.toFixed(7)}&lat=${point.lat.toFixed(7)}`)
      .then((place) => place.label)
      .catch(() => `${point.lat.toFixed(5)}, ${point.lon.toFixed(5)}`));
  }
  return placeNames.get(key);
}

function element(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

function byId(id) {
  return document.getElementById(id);
}

function when(ms) {
  return new Date(ms).toLocaleString(undefined, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

function metres(distance) {
  return distance < 1000 ? `${Math.round(distance)} m` : `${(distance / 1000).toFixed(1)} km`;
}

/** A time of day as HH:MM (24 h), in the browser's time zone. */
function clockTime(ms) {
  return new Date(ms).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}

/** Seconds as whole minutes, one at least. */
function wholeMinutes(seconds) {
  return Math.max(1, Math.round(seconds / 60));
}

// ---------------------------------------------------------------- screens

const screens = ["login", "register", "confirm", "forgot", "reset", "home", "reservations", "history", "profile"];
const loggedInScreens = ["home", "reservations", "history", "profile"];

function show(name) {
  for (const screen of screens) byId(`screen-${screen}`).hidden = screen !== name;
  byId("tabs").hidden = !loggedInScreens.includes(name);
  for (const tab of document.querySelectorAll("#tabs a")) {
    if (tab.dataset.screen === name) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
  if (name === "home") homeShown();
  if (name === "reservations") reservationsShown();
  if (name === "history") historyShown();
  if (name === "profile") profileShown();
}

/**
 * The screen the address names: #confirm=TOKEN confirms an address, #reset=TOKEN asks for a new password
 * (the token kept in memory only, out of the address bar); logged out, only the login's screens.
 */
function route() {
  const hash = decodeURIComponent(location.hash.slice(1));
  if (hash.startsWith("confirm=")) {
    history.replaceState(null, "", "/app#confirm");
    confirmAddress(hash.slice("confirm=".length), true);
    return;
  }
  if (hash.startsWith("reset=")) {
    history.replaceState(null, "", "/app#reset");
    askNewPassword(hash.slice("reset=".length).trim());
    return;
  }
  if (hash === "reset") {
    show(resetToken ? "reset" : "forgot");
    return;
  }
  if (!session.loggedIn) {
    show(["register", "confirm", "forgot"].includes(hash) ? hash : "login");
    return;
  }
  show(loggedInScreens.includes(hash) ? hash : "home");
}

function go(screen) {
  if (location.hash === `#${screen}`) route();
  else location.hash = screen;
}

// ------------------------------------------------------- signing up, login

/**
 * Shows each field's problems at it: `inputs` maps a problem's `field` to its input's id, whose problems are
 * written in the element `ID-error`; a field with none has them cleared.
 */
function showProblems(inputs, errors) {
  for (const [field, id] of Object.entries(inputs)) {
    const problems = errors.filter((error) => error.field === field).map((error) => error.problem);
    setText(`${id}-error`, problems.join("; "));
    const input = byId(id);
    if (problems.length) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }
}

/** The fields' problems of an error answer (a 400's `errors`), none for any other error. */
function problemsOf(error) {
  return error instanceof APIError ? error.problem.errors || [] : [];
}

function showFieldErrors(errors) {
  showProblems({ username: "register-username", email: "register-email", password: "register-password" }, errors);
}

async function register(event) {
  event.preventDefault();
  setText("register-error", "");
  showFieldErrors([]);
  const body = {
    username: byId("register-username").value.trim(),
    email: byId("register-email").value.trim(),
    password: byId("register-password").value,
  };
  try {
    await session.call("POST", "/v1/passengers", body, { anonymous: true, idempotent: true });
  } catch (error) {
    const errors = problemsOf(error);
    if (error.status === 409) showFieldErrors([{ field: "username", problem: error.message }]);
    else if (errors.length) showFieldErrors(errors);
    setText("register-error", errors.length ? "Please correct the fields above." : error.message);
    return;
  }
  byId("register-form").reset();
  byId("login-username").value = body.username;
  setText("confirm-note", `We sent an e-mail to ${body.email}. Open its link to confirm your address, or paste its token here.`);
  setText("confirm-title", "Check your e-mail");
  go("confirm");
}

/** Confirms an address with the e-mail's token; `fromLink` when the e-mail's link opened the app. */
async function confirmAddress(token, fromLink) {
  setText("confirm-error", "");
  if (fromLink) {
    setText("confirm-title", "Confirming your address");
    setText("confirm-note", "One moment...");
    show("confirm");
  }
  try {
    // The token is a new account's or an account's new address (PUT /v1/account/email): the answer, the
    // account, has the address confirmed either way.
    const account = await session.call("POST", "/v1/passengers/confirmations", { token: token.trim() }, { anonymous: true });
    byId("confirm-token").value = "";
    const address = account?.email ? `The address ${account.email}` : "Your address";
    if (session.loggedIn) {
      setText("email-result", account?.username && account.username !== session.username
        ? `${address} is confirmed for the account ${account.username}.`
        : `${address} is confirmed: it is your account's address now.`);
      history.replaceState(null, "", "/app#profile");
    } else {
      if (account?.username) byId("login-username").value = account.username;
      setText("login-note", `${address} is confirmed: you can log in.`);
      history.replaceState(null, "", "/app#login");
    }
    route();
  } catch (error) {
    setText("confirm-title", "Confirm your address");
    setText("confirm-note", "");
    setText("confirm-error", error.message);
    show("confirm");
  }
}

// -------------------------------------------------------- forgotten password

/** The token of the "forgot password" e-mail whose link opened the app (#reset=TOKEN), until it is used. */
let resetToken = null;

/** The "forgot password" form, cleared; `note` says why it is shown again (a link used or expired), or nothing. */
function clearForgot(note) {
  setText("forgot-note", note);
  setText("forgot-result", "");
  setText("forgot-error", "");
  showProblems({ email: "forgot-email" }, []);
}

/** Asks for a "forgot password" e-mail: the answer is the same whether or not an account has the address. */
async function requestReset(event) {
  event.preventDefault();
  setText("forgot-result", "");
  setText("forgot-error", "");
  showProblems({ email: "forgot-email" }, []);
  const email = byId("forgot-email").value.trim();
  if (!email) {
    showProblems({ email: "forgot-email" }, [{ field: "email", problem: "Enter your account's e-mail address." }]);
    return;
  }
  let answer;
  try {
    answer = await session.call("POST", "/v1/password-resets", { email }, { anonymous: true });
  } catch (error) {
    const errors = problemsOf(error);
    if (errors.length) showProblems({ email: "forgot-email" }, errors);
    else setText("forgot-error", error.message);
    return;
  }
  setText("forgot-note", "");
  setText("forgot-result", answer.detail);
}

/** The link of a "forgot password" e-mail: the form for the new password. */
function askNewPassword(token) {
  resetToken = token || null;
  if (!resetToken) {
    clearForgot("");
    history.replaceState(null, "", "/app#forgot");
    route();
    return;
  }
  byId("reset-form").reset();
  setText("reset-error", "");
  showProblems({ password: "reset-password", repeat: "reset-repeat" }, []);
  show("reset");
}

/** Sets the new password, typed twice, with the e-mail's token; then the login (every login of the account ended). */
async function resetPassword(event) {
  event.preventDefault();
  const inputs = { password: "reset-password", repeat: "reset-repeat" };
  setText("reset-error", "");
  showProblems(inputs, []);
  const newPassword = byId("reset-password").value;
  if (newPassword !== byId("reset-repeat").value) {
    showProblems(inputs, [{ field: "repeat", problem: "The two passwords differ: type the same one twice." }]);
    return;
  }
  try {
    await session.call("POST", "/v1/password-resets/confirmations", { token: resetToken, newPassword }, { anonymous: true });
  } catch (error) {
    if (error.status === 422) {
      resetToken = null;
      clearForgot("That link has been used or has expired: ask for a new e-mail here.");
      history.replaceState(null, "", "/app#forgot");
      show("forgot");
      return;
    }
    // The rules the password breaks are named as the password's (or the new password's).
    const errors = problemsOf(error).map((problem) => ({ ...problem, field: problem.field === "newPassword" ? "password" : problem.field }));
    if (errors.length) showProblems(inputs, errors);
    setText("reset-error", errors.length ? "Please correct the fields above." : error.message);
    return;
  }
  resetToken = null;
  byId("reset-form").reset();
  const note = "Your new password is set: log in with it.";
  // The service ended every login of the account: one in this browser (most likely the same account's) is
  // forgotten here too, without asking the service to end it again (a 401 when it was the account's).
  if (session.loggedIn) {
    session.closePush();
    session.forget();
    forgetPassenger(note);
    return;
  }
  setText("login-note", note);
  history.replaceState(null, "", "/app#login");
  route();
}

async function logIn(event) {
  event.preventDefault();
  setText("login-error", "");
  const username = byId("login-username").value.trim();
  const password = byId("login-password").value;
  if (!username || !password) {
    setText("login-error", "Enter your username and password.");
    return;
  }
  try {
    await session.logIn(username, password, "passenger");
  } catch (error) {
    setText("login-error", error.message);
    return;
  }
  byId("login-password").value = "";
  setText("login-note", "");
  enter();
  go("home");
}

/** The logged-in part starts: the map, the push socket. */
function enter() {
  setText("profile-username", session.username);
  session.openPush(pushed, (open) => {
    byId("connection").hidden = open;
    setText("connection", open ? "" : "Connection lost: reconnecting...");
  });
}

/** Back to the login, everything of the passenger forgotten; `note` says why. */
function leave(note) {
  forgetRide();
  byId("connection").hidden = true;
  for (const id of ["reservation-list", "history-upcoming", "history-past"]) byId(id).replaceChildren();
  for (const field of [pickupField, destinationField, reservationPickupField, reservationDestinationField]) field.clear();
  refreshShare();
  byId("summary").hidden = true;
  for (const id of ["password-result", "email-result", "email-error"]) setText(id, "");
  setText("login-note", note);
  history.replaceState(null, "", "/app#login");
  route();
}

/** Logs out; what this browser kept of the passenger's rides (their places' names, confirmations) goes too. */
async function logOut() {
  await session.logOut();
  forgetPassenger("You are logged out.");
}

/** Forgets what this browser kept of the passenger's rides, then back to the login with `note`. */
function forgetPassenger(note) {
  localStorage.removeItem(labels.key);
  sessionStorage.removeItem(confirmedKey);
  confirmedRides.clear();
  leave(note);
}

// ----------------------------------------------------------------- the map

let map = null;
const marks = { pickup: null, destination: null, walk: null, sooner: null, taxi: null, routes: null };

function homeShown() {
  if (!map) startMap();
  map.invalidateSize();
  refreshWait();
}

function startMap() {
  map = L.map("map", { zoomControl: true, attributionControl: true }).setView(midtown, 14);
  map.attributionControl.setPrefix(false);
  map.attributionControl.addAttribution("Roads © OpenStreetMap contributors");
  map.on("click", (event) => tapped(event.latlng));
  drawServiceArea();
}

/** The service area: the zones' outlines (GET /v1/zones) and the main roads (GET /v1/roads). */
async function drawServiceArea() {
  const [zones, roads] = await Promise.all([
    session.call("GET", "/v1/zones").catch(() => null),
    session.call("GET", "/v1/roads").catch(() => null),
  ]);
  if (zones) L.geoJSON(zones, { interactive: false, style: () => ({ className: "zone-outline", weight: 1, fill: false }) }).addTo(map);
  if (roads) {
    const layer = L.geoJSON(roads, { interactive: false, style: () => ({ className: "road", weight: 1.5 }) }).addTo(map);
    if (roads.features.length && !ride && !pickupField.place()) map.fitBounds(layer.getBounds(), { animate: false });
  }
}

function pointMarker(point, className, title) {
  return L.circleMarker([point.lat, point.lon], { className, radius: 9, weight: 3, fillOpacity: 0.9, interactive: false })
    .bindTooltip(title, { permanent: false }).addTo(map);
}

function mark(which, point, title) {
  if (!map) return;
  if (marks[which]) marks[which].remove();
  marks[which] = point ? pointMarker(point, `mark-${which}`, title) : null;
}

/** The walk from where the passenger asked to the meeting point a taxi can stop at. */
function markWalk(meetingPoint) {
  if (!map) return;
  if (marks.walk) marks.walk.remove();
  marks.walk = meetingPoint
    ? L.polyline([[meetingPoint.from.lat, meetingPoint.from.lon], [meetingPoint.lat, meetingPoint.lon]],
      { className: "walk", weight: 3, dashArray: "4 6", interactive: false }).addTo(map)
    : null;
}

/** The taxi where it reported, turned to its heading. */
function markTaxi(fix) {
  if (!map) return;
  if (!fix) {
    if (marks.taxi) marks.taxi.remove();
    marks.taxi = null;
    return;
  }
  const where = [fix.lat, fix.lon];
  if (!marks.taxi) {
    const body = element("span", "taxi-body");
    body.append(element("span", "taxi-arrow"));
    marks.taxi = L.marker(where, {
      icon: L.divIcon({ className: "taxi-marker", html: body, iconSize: [28, 28] }),
      keyboard: false, interactive: false, title: `Taxi ${fix.taxiId || ""}`,
    }).addTo(map);
  }
  marks.taxi.setLatLng(where);
  const arrow = marks.taxi.getElement()?.querySelector(".taxi-body");
  if (arrow && typeof fix.heading === "number") arrow.style.transform = `rotate(${fix.heading}deg)`;
}

function markRoutes(features) {
  if (!map) return;
  if (marks.routes) marks.routes.remove();
  marks.routes = features?.length
    ? L.geoJSON({ type: "FeatureCollection", features }, {
      interactive: false,
      style: (feature) => ({ className: `route route-${feature.properties?.leg || "other"}`, weight: 4 }),
    }).addTo(map)
    : null;
}

function showOnMap(points) {
  if (!map || points.length === 0) return;
  if (points.length === 1) map.setView([points[0].lat, points[0].lon], Math.max(map.getZoom(), 15));
  else map.fitBounds(L.latLngBounds(points.map((point) => [point.lat, point.lon])), { padding: [40, 40], maxZoom: 16 });
}

/** A tap on the map: the point, named, becomes the pickup or the destination. */
async function tapped(latlng) {
  if (ride) return;
  const target = document.querySelector("input[name=tap-sets]:checked").value;
  const point = { lon: latlng.lng, lat: latlng.lat };
  const label = await placeName(point);
  (target === "pickup" ? pickupField : destinationField).choose({ ...point, label });
}

function locate() {
  setText("request-error", "");
  if (!navigator.geolocation) {
    setText("request-error", "This browser cannot tell your location: type the pickup or tap the map.");
    return;
  }
  setText("wait-info", "Finding your location...");
  navigator.geolocation.getCurrentPosition(async (position) => {
    const point = { lon: position.coords.longitude, lat: position.coords.latitude };
    pickupField.choose({ ...point, label: await placeName(point) });
  }, (failure) => {
    setText("wait-info", "");
    setText("request-error", `Your location is not available (${failure.message || "refused"}): type the pickup or tap the map.`);
  }, { enableHighAccuracy: true, timeout: 15000, maximumAge: 60000 });
}

// -------------------------------------------------- asking for a taxi now

const searchPlaces = (text) => {
  const centre = map ? map.getCenter() : { lng: midtown[1], lat: midtown[0] };
  return session.call("GET", `/v1/places?limit=6&q=${encodeURIComponent(text)}&near=${centre.lng.toFixed(6)},${centre.lat.toFixed(6)}`)
    .then((answer) => answer.places);
};

/** The nearby stop where a taxi comes sooner (GET /v1/waits' first `shorterWaits`), while it is offered. */
let shorterWait = null;

const pickupField = new AddressField(byId("pickup"), searchPlaces, (place) => {
  mark("pickup", place, "Pickup");
  if (place) showChosenPlaces();
  refreshWait();
  refreshDrive();
  refreshShareQuote();
});
const destinationField = new AddressField(byId("destination"), searchPlaces, (place) => {
  mark("destination", place, "Destination");
  if (place) showChosenPlaces();
  refreshDrive();
  refreshShare();
});

/** "Share the ride" needs a destination: offered with one; without, unticked and disabled, the hint says why. */
function refreshShare() {
  const box = byId("share-ride");
  const destination = Boolean(destinationField.location());
  box.disabled = !destination;
  if (!destination) box.checked = false;
  setText("share-ride-hint", destination
    ? "Others going the same way may ride with you: your trip may take a little longer."
    : "Give a destination to share the ride.");
  refreshShareQuote();
}

/** With "Share the ride" ticked and both places chosen, what a shared ride would be told now (GET /v1/waits with
 * `to`): when its taxi would come (one already on a ride going this way, or one of its own) and the most the
 * other riders may add to the trip alone; told before asking. */
async function refreshShareQuote() {
  const pickup = pickupField.place(), destination = destinationField.place();
  const wanted = byId("share-ride").checked && pickup && destination && !ride;
  byId("share-quote").hidden = !wanted;
  if (!wanted) {
    setText("share-quote", "");
    return;
  }
  const at = (place) => `${place.lon.toFixed(7)},${place.lat.toFixed(7)}`;
  let quote;
  try {
    quote = (await session.call("GET", `/v1/waits?lon=${pickup.lon.toFixed(7)}&lat=${pickup.lat.toFixed(7)}&to=${at(destination)}`)).shared;
  } catch (error) {
    if (pickupField.place() === pickup && destinationField.place() === destination) setText("share-quote", error.message);
    return;
  }
  if (pickupField.place() !== pickup || destinationField.place() !== destination || !quote) return;
  const taxi = typeof quote.expectedPickupS === "number"
    ? `a taxi in about ${spokenDuration(quote.expectedPickupS)}${quote.joinsSharedRide ? ", already on a ride going your way" : ""}`
    : "the wait is not known yet";
  setText("share-quote", `Shared: ${taxi}; at most +${wholeMinutes(quote.maximumAddedDelayS)} min on your trip`
    + ` (alone: ${wholeMinutes(quote.directTripS)} min).`);
}

function showChosenPlaces() {
  showOnMap([pickupField.place(), destinationField.place()].filter(Boolean));
}

/** The expected wait at the pickup chosen (GET /v1/waits), the zone's busiest hours, the meeting point's walk where
 * a taxi cannot stop, and the first nearby zone where walking gets a taxi sooner (`shorterWaits`). */
async function refreshWait() {
  const place = pickupField.place();
  byId("walk-info").hidden = true;
  markWalk(null);
  showBusyHours([]);
  offerShorterWait(null);
  if (ride) return;
  if (!place) {
    setText("wait-info", byId("pickup").value.trim() ? "Choose a suggestion to see the expected wait." : "");
    return;
  }
  let wait;
  try {
    wait = await session.call("GET", `/v1/waits?lon=${place.lon.toFixed(7)}&lat=${place.lat.toFixed(7)}`);
  } catch (error) {
    if (pickupField.place() !== place) return;
    setText("wait-info", error.status === 404 ? "Outside the service area: no taxi can be called here." : error.message);
    return;
  }
  if (pickupField.place() !== place || ride) return;
  const zone = wait.name ? ` (${wait.name})` : "";
  setText("wait-info", typeof wait.expectedWaitS === "number"
    ? `Expected wait: about ${spokenDuration(wait.expectedWaitS)}${zone}`
    : `Expected wait: not known yet${zone}`);
  showBusyHours(wait.busyHours || []);
  if (wait.meetingPoint) {
    byId("walk-info").hidden = false;
    setText("walk-info", `No taxi can stop right there: it will wait at a meeting point, a ${spokenDuration(wait.meetingPoint.walkS)}` +
      ` walk (${metres(wait.meetingPoint.walkM)}) away.`);
    markWalk(wait.meetingPoint);
  }
  offerShorterWait(wait.shorterWaits?.[0] || null);
}

/** An hour of the city's day as the span it names, in 24 h form: 8 is "8–9", 23 is "23–24". */
function hourSpan(hour) {
  return `${hour}–${hour + 1}`;
}

/** The pickup zone's busiest hours of the day over the last four weeks (`busyHours`, in the day's order, hours of
 * the city's time), so that a passenger who can choose comes at a quieter time; no line for a zone with no request. */
function showBusyHours(hours) {
  byId("busy-hours").hidden = hours.length === 0;
  setText("busy-hours", hours.length ? `Busiest here: ${hours.map((busy) => hourSpan(busy.hour)).join(", ")}` : "");
}

/** A nearby stop where a taxi comes sooner, walk included: told, marked, and offered as the pickup ("Walk there"). */
function offerShorterWait(sooner) {
  shorterWait = sooner;
  byId("shorter-wait").hidden = !sooner;
  mark("sooner", sooner, sooner ? `A taxi sooner: ${sooner.name || "nearby"}` : "");
  if (!sooner) {
    setText("shorter-wait-text", "");
    return;
  }
  setText("shorter-wait-text", `A taxi sooner: walk ${spokenDuration(sooner.walkS)} to ${sooner.name || "a nearby stop"},` +
    ` taxi there in about ${spokenDuration(sooner.expectedWaitS)}`);
}

/** "Walk there": the suggested stop becomes the pickup, named, as a point tapped on the map does. */
async function walkThere() {
  if (!shorterWait || ride) return;
  const point = { lon: shorterWait.lon, lat: shorterWait.lat };
  pickupField.choose({ ...point, label: await placeName(point) });
}

/** The drive from the pickup to the destination chosen (GET /v1/eta). */
async function refreshDrive() {
  const from = pickupField.place();
  const to = destinationField.place();
  setText("drive-info", "");
  if (!from || !to) return;
  try {
    const drive = await session.call("GET", `/v1/eta?from=${from.lon.toFixed(7)},${from.lat.toFixed(7)}&to=${to.lon.toFixed(7)},${to.lat.toFixed(7)}`);
    if (pickupField.place() === from && destinationField.place() === to) {
      setText("drive-info", `The drive: about ${spokenDuration(drive.durationS)}, ${metres(drive.distanceM)}`);
    }
  } catch (error) {
    setText("drive-info", error.message);
  }
}

/** The places an address may mean, as buttons: the one chosen goes into `field`. */
function offerCandidates(box, title, list, field, fieldName, candidates) {
  byId(box).hidden = false;
  setText(title, `Which ${fieldName} do you mean?`);
  byId(list).replaceChildren(...candidates.map((candidate) => {
    const item = element("li");
    const button = element("button", "choice", candidate.label + (candidate.note ? ` (${candidate.note})` : ""));
    button.type = "button";
    button.addEventListener("click", () => {
      byId(box).hidden = true;
      field.choose({ lon: candidate.lon, lat: candidate.lat, label: candidate.label });
      field.input.focus();
    });
    item.append(button);
    return item;
  }));
  byId(list).querySelector("button")?.focus();
}

/** Which field an ambiguous address was in: the problem's words name it. */
function ambiguousField(problem) {
  return (problem.detail || "").includes("(destination)") ? "destination" : "pickup";
}

async function requestRide(event) {
  event.preventDefault();
  setText("request-error", "");
  byId("candidates").hidden = true;
  const pickup = pickupField.location();
  if (!pickup) {
    setText("request-error", "Where should the taxi pick you up? Type an address, tap the map or use your location.");
    byId("pickup").focus();
    return;
  }
  const body = { pickup };
  const destination = destinationField.location();
  if (destination) body.destination = destination;
  if (destination && byId("share-ride").checked) body.shared = true;
  const button = byId("request");
  button.disabled = true;
  try {
    const answer = await session.call("POST", "/v1/rides", body, { idempotent: true });
    labels.keep(answer.rideId, answer.pickupAddress || byId("pickup").value.trim(),
      answer.destinationAddress || byId("destination").value.trim() || null);
    byId("summary").hidden = true;
    showRide(answer);
  } catch (error) {
    if (error.status === 422 && error.problem.candidates?.length) {
      const which = ambiguousField(error.problem);
      setText("request-error", error.message);
      offerCandidates("candidates", "candidates-title", "candidate-list", which === "pickup" ? pickupField : destinationField,
        which, error.problem.candidates);
    } else if (error.status === 409) {
      setText("request-error", `You already have a ride open: ${error.message}.`);
      const open = await session.call("GET", "/v1/rides/current").catch(() => null);
      if (open) showRide(open);
    } else {
      setText("request-error", error.message);
    }
  } finally {
    button.disabled = false;
  }
}

// ------------------------------------------------------------- the ride

// The open ride as last known (the Ride schema), with `etaDueMs`, `waitDueMs` and `offeredTaxiId` of its own.
let ride = null;
let taxiFix = null;
let rideTicker = null;
let routeReadMs = 0;
const confirmedKey = "mytaxi.app.confirmed";
const confirmedRides = new Set(JSON.parse(sessionStorage.getItem(confirmedKey) || "[]"));
const summarisedRides = new Set();

/** The ride `answer` (from the service) as the open ride, merged into what is known of it. */
function showRide(answer) {
  if (!answer || answer.status === "ended") return;
  const same = ride && ride.rideId === answer.rideId;
  if (same && statusOrder.indexOf(answer.status) < statusOrder.indexOf(ride.status) && statusOrder.indexOf(ride.status) >= 2) {
    answer = { ...answer, status: ride.status };
  }
  const etaDueMs = same && ride.etaDueMs ? ride.etaDueMs
    : typeof answer.etaS === "number" ? clock.now() + answer.etaS * 1000 : null;
  // The queued ride's expected wait, from when it was told: it counts down until it is told again.
  const waitDueMs = typeof answer.expectedWaitS === "number" ? clock.now() + answer.expectedWaitS * 1000
    : same ? ride.waitDueMs : null;
  const statusBefore = same ? ride.status : null;
  ride = { ...(same ? ride : {}), ...answer, etaDueMs, waitDueMs };
  if (!same) rideOpened();
  else if (ride.status !== statusBefore && ["arrived", "aboard"].includes(ride.status)) readRoute();
  if (answer.taxi) taxiReported(answer.taxi);
  showSharedTerms();
  renderRide();
}

/** A shared ride's terms (its `shared`): the most the other riders may add to the trip alone, and the latest pickup. */
function showSharedTerms() {
  const terms = ride.shared;
  byId("shared-terms").hidden = !terms;
  setText("shared-terms", terms
    ? `Shared ride: at most +${wholeMinutes(terms.maximumAddedDelayS)} min on your trip (alone: ${wholeMinutes(terms.directTripS)} min);`
      + ` picked up by ${clockTime(Date.parse(terms.latestPickupAt))} at the latest`
    : "");
}

function rideOpened() {
  if (ride.status === "queued") clock.read().then(renderRide, () => {});
  taxiFix = null;
  routeReadMs = 0;
  markTaxi(null);
  markRoutes(null);
  clearInterval(rideTicker);
  rideTicker = setInterval(renderRide, 250);
  mark("pickup", ride.pickup, "Pickup");
  mark("destination", ride.destination || null, "Destination");
  markWalk(ride.meetingPoint || null);
  showOnMap([ride.pickup, ride.destination].filter(Boolean));
  byId("request-form").hidden = true;
  byId("ride").hidden = false;
  setText("wait-info", "");
  setText("drive-info", "");
  byId("walk-info").hidden = true;
  showBusyHours([]);
  offerShorterWait(null);
  const known = labels.get(ride.rideId);
  const pickupLabel = known?.pickup ? Promise.resolve(known.pickup) : placeName(ride.pickup);
  const destinationLabel = known?.destination ? Promise.resolve(known.destination)
    : ride.destination ? placeName(ride.destination) : Promise.resolve(null);
  const rideId = ride.rideId;
  Promise.all([pickupLabel, destinationLabel]).then(([from, to]) => {
    if (ride?.rideId === rideId) setText("ride-places", `From ${from}${to ? ` to ${to}` : ""}`);
  });
}

function forgetRide() {
  ride = null;
  taxiFix = null;
  clearInterval(rideTicker);
  markTaxi(null);
  markRoutes(null);
  markWalk(null);
  byId("ride").hidden = true;
  byId("request-form").hidden = false;
  setText("ride-places", "");
  setText("shared-terms", "");
  byId("shared-terms").hidden = true;
  setText("ride-error", "");
}

/** The ride is over: its summary in place of it, back to asking. */
function rideEnded(rideId, outcome, reason, taxiId) {
  if (summarisedRides.has(rideId)) return;
  summarisedRides.add(rideId);
  const taxi = taxiId ? ` with taxi ${taxiId}` : "";
  const text = {
    completed: `Your ride${taxi} is complete. Thank you for riding with mytaxi.`,
    client_missing: `The driver${taxiId ? ` of ${taxiId}` : ""} waited but did not find you: the ride is closed.`,
    by_passenger: "You cancelled the ride.",
    not_confirmed: "The ride was cancelled: the wait was not confirmed in time.",
    outside_zones: "The ride was cancelled: its pickup is outside the service area now.",
    cancelled: "The ride was cancelled.",
  }[outcome === "cancelled" ? reason || "cancelled" : outcome] || `The ride ended: ${outcomeWords[outcome] || outcome}.`;
  if (ride?.rideId === rideId) {
    mark("pickup", pickupField.place(), "Pickup");
    mark("destination", destinationField.place(), "Destination");
    forgetRide();
  }
  setText("summary-text", text);
  byId("summary").dataset.tone = outcome === "completed" ? "good" : "warn";
  byId("summary").hidden = false;
  refreshWait();
  refreshDrive();
}

/** Reads the open ride once (not polled): its state, the taxi's position, its wait, or its end. */
async function readRide() {
  if (!ride) return;
  const rideId = ride.rideId;
  let answer;
  try {
    answer = await session.call("GET", `/v1/rides/${encodeURIComponent(rideId)}`);
  } catch {
    return;
  }
  if (ride?.rideId !== rideId) return;
  if (answer.status === "ended") rideEnded(rideId, answer.outcome, null, answer.taxiId);
  else showRide(answer);
}

/** A fix of the ride's taxi: the marker moves, the ETA follows, the route is read again now and then. */
function taxiReported(fix) {
  if (taxiFix && fix.time && taxiFix.time && Date.parse(fix.time) < Date.parse(taxiFix.time)) return;
  const first = !taxiFix;
  taxiFix = fix;
  markTaxi(fix);
  if (first && ride) showOnMap([ride.pickup, fix]);
  if (typeof fix.etaS === "number" && ride) ride.etaDueMs = Date.parse(fix.time || new Date(clock.now()).toISOString()) + fix.etaS * 1000;
  if (Date.now() - routeReadMs > routeRefreshMs) readRoute();
}

/** The taxi's way to the pickup and the way to the destination (GET /v1/rides/{id}/route). */
async function readRoute() {
  if (!ride) return;
  routeReadMs = Date.now();
  const rideId = ride.rideId;
  const route = await session.call("GET", `/v1/rides/${encodeURIComponent(rideId)}/route`).catch(() => null);
  if (!route || ride?.rideId !== rideId) return;
  const legs = route.features.filter((feature) => feature.properties?.leg !== "toPickup" || ride.status === "assigned");
  markRoutes(legs);
  ride.routeLegs = Object.fromEntries(legs.map((feature) => [feature.properties?.leg, feature.properties]));
}

function renderRide() {
  if (!ride) return;
  const taxi = ride.taxiId || ride.offeredTaxiId;
  let status;
  let detail = "";
  byId("confirm-box").hidden = true;
  switch (ride.status) {
    case "queued": {
      status = `You are number ${ride.queuePosition ?? "?"} in the queue`;
      const waitS = ride.waitDueMs ? (ride.waitDueMs - clock.now()) / 1000 : null;
      detail = waitS === null ? "Waiting for a free taxi."
        : waitS > 30 ? `Expected wait: about ${spokenDuration(waitS)}.` : "Expected wait: a taxi should be free any moment.";
      if (confirmedRides.has(ride.rideId)) detail = `Confirmed: you keep your place in the queue. ${detail}`;
      else renderCountdown();
      break;
    }
    case "offered":
      status = "Finding your taxi...";
      detail = taxi ? `Asking taxi ${taxi}.` : "A taxi is being asked.";
      break;
    case "assigned": {
      status = `Taxi ${ride.taxiId} is on its way`;
      const leftS = ride.etaDueMs ? (ride.etaDueMs - clock.now()) / 1000 : null;
      detail = leftS === null ? "Arrival time not known yet." : leftS > 30 ? `Arrives in about ${spokenDuration(leftS)}.` : "Arriving now.";
      if (ride.meetingPoint) detail += ` Walk ${spokenDuration(ride.meetingPoint.walkS)} to the meeting point.`;
      break;
    }
    case "arrived":
      status = `Your taxi ${ride.taxiId} is here`;
      detail = ride.meetingPoint ? "It waits at the meeting point." : "It waits at the pickup.";
      break;
    case "aboard": {
      status = "On your way";
      const leg = ride.routeLegs?.toDestination;
      detail = `Aboard taxi ${ride.taxiId}.` + (leg ? ` The drive: about ${spokenDuration(leg.durationS)}.` : "");
      break;
    }
    default:
      status = ride.status;
  }
  byId("ride").dataset.status = ride.status;
  // Written only when it changes, so that a screen reader announces each new state once.
  if (byId("ride-status").textContent !== status) setText("ride-status", status);
  if (byId("ride-detail").textContent !== detail) setText("ride-detail", detail);
  byId("cancel-ride").hidden = ride.status === "aboard";
}

/** A queued request's countdown to `confirmBy`, on the service's clock. */
function renderCountdown() {
  if (!ride.confirmBy) return;
  const leftMs = Date.parse(ride.confirmBy) - clock.now();
  if (leftMs <= 0) return;
  byId("confirm-box").hidden = false;
  setText("countdown", `Confirm within ${Math.ceil(leftMs / 1000)} s that you will wait, or the request is cancelled.`);
  byId("countdown-bar").style.width = `${Math.min(100, leftMs / 300)}%`;
}

async function confirmWait() {
  if (!ride) return;
  const rideId = ride.rideId;
  setText("ride-error", "");
  try {
    const answer = await session.call("POST", `/v1/rides/${encodeURIComponent(rideId)}/confirmation`, undefined, { idempotent: true });
    confirmedRides.add(rideId);
    sessionStorage.setItem(confirmedKey, JSON.stringify([...confirmedRides]));
    showRide(answer);
  } catch (error) {
    setText("ride-error", error.message);
  }
  renderRide();
}

async function cancelRide() {
  if (!ride) return;
  const rideId = ride.rideId;
  const taxiId = ride.taxiId;
  setText("ride-error", "");
  try {
    await session.call("DELETE", `/v1/rides/${encodeURIComponent(rideId)}`, undefined, { idempotent: true });
  } catch (error) {
    setText("ride-error", error.message);
    return;
  }
  rideEnded(rideId, "cancelled", "by_passenger", taxiId);
}

/** A notice of the ride not on screen: an open ride there (a booking's) is taken up, an ended one summarised. */
async function takeUpRide(rideId) {
  const answer = await session.call("GET", `/v1/rides/${encodeURIComponent(rideId)}`).catch(() => null);
  if (!answer || ride) return;
  if (answer.status === "ended") rideEnded(rideId, answer.outcome, null, answer.taxiId);
  else showRide(answer);
}

const rideKinds = new Set(["queued", "offer", "taxi_assigned", "eta_changed", "taxi_arrived", "taxi_position",
  "passenger_aboard", "ride_completed", "client_missing", "ride_cancelled"]);

/** One message of the push socket. */
function pushed(message) {
  if (message.kind === "state") {
    if (message.ride) showRide(message.ride);
    else if (ride) readRide();
    return;
  }
  if (message.kind.startsWith("reservation_")) {
    reservationNotice(message);
    return;
  }
  if (!rideKinds.has(message.kind) || !message.rideId) return;
  if (!ride || ride.rideId !== message.rideId) {
    if (!ride && !summarisedRides.has(message.rideId) && message.kind !== "taxi_position") takeUpRide(message.rideId);
    return;
  }
  switch (message.kind) {
    case "queued":
      Object.assign(ride, { status: "queued", queuePosition: message.queuePosition, confirmBy: message.confirmBy });
      // The notice has no expected wait: the ride, read once, has it.
      readRide();
      break;
    case "offer":
      Object.assign(ride, { status: "offered", offeredTaxiId: message.taxiId });
      break;
    case "taxi_assigned":
    case "eta_changed":
      Object.assign(ride, { status: message.kind === "taxi_assigned" ? "assigned" : ride.status, taxiId: message.taxiId });
      if (typeof message.etaS === "number") ride.etaDueMs = Date.parse(message.at) + message.etaS * 1000;
      if (message.kind === "taxi_assigned") readRoute();
      break;
    case "taxi_arrived":
      ride.status = "arrived";
      readRoute();
      break;
    case "passenger_aboard":
      ride.status = "aboard";
      readRoute();
      break;
    case "taxi_position":
      taxiReported(message);
      break;
    case "ride_completed":
      rideEnded(message.rideId, "completed", null, message.taxiId || ride.taxiId);
      return;
    case "client_missing":
      rideEnded(message.rideId, "client_missing", null, message.taxiId || ride.taxiId);
      return;
    case "ride_cancelled":
      rideEnded(message.rideId, "cancelled", message.reason, message.taxiId || ride.taxiId);
      return;
  }
  renderRide();
}

// ----------------------------------------------------------- reservations

const reservationPickupField = new AddressField(byId("reservation-pickup"), searchPlaces);
const reservationDestinationField = new AddressField(byId("reservation-destination"), searchPlaces);

/** A time as a datetime-local input's value, in the browser's time zone. */
function localInputValue(ms) {
  const date = new Date(ms);
  const pad = (number) => String(number).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function reservationWindow() {
  const now = clock.now();
  return { earliest: now + reservationEarliestMs, latest: now + reservationLatestMs };
}

function reservationsShown() {
  const { earliest, latest } = reservationWindow();
  const input = byId("reservation-time");
  const fiveMinutes = 300000;
  input.min = localInputValue(Math.ceil(earliest / fiveMinutes) * fiveMinutes);
  input.max = localInputValue(Math.floor(latest / fiveMinutes) * fiveMinutes);
  if (!input.value) input.value = localInputValue(Math.ceil((earliest + 3600000) / fiveMinutes) * fiveMinutes);
  setText("reservation-window", `Book 2 to 48 hours ahead: between ${when(earliest)} and ${when(latest)}.`);
  listReservations();
}

async function reserve(event) {
  event.preventDefault();
  setText("reservation-error", "");
  setText("reservation-result", "");
  byId("reservation-candidates").hidden = true;
  const pickup = reservationPickupField.location();
  const destination = reservationDestinationField.location();
  if (!pickup || !destination) {
    setText("reservation-error", "A booking needs a pickup and a destination.");
    return;
  }
  const pickupAtMs = new Date(byId("reservation-time").value).getTime();
  const { earliest, latest } = reservationWindow();
  if (Number.isNaN(pickupAtMs)) {
    setText("reservation-error", "Choose the pickup time.");
    return;
  }
  if (pickupAtMs < earliest || pickupAtMs > latest) {
    setText("reservation-error", `A taxi can be booked 2 to 48 hours ahead: choose a time between ${when(earliest)} and ${when(latest)}.`);
    return;
  }
  try {
    const booked = await session.call("POST", "/v1/reservations",
      { pickup, destination, pickupAt: new Date(pickupAtMs).toISOString() }, { idempotent: true });
    const from = booked.pickupAddress || byId("reservation-pickup").value.trim();
    const to = booked.destinationAddress || byId("reservation-destination").value.trim();
    labels.keep(booked.reservationId, from, to);
    setText("reservation-result", `Booked for ${when(Date.parse(booked.pickupAt))}: ${from} to ${to}.`);
    reservationPickupField.clear();
    reservationDestinationField.clear();
    byId("reservation-time").value = "";
    reservationsShown();
  } catch (error) {
    setText("reservation-error", error.message);
    if (error.status === 422 && error.problem.candidates?.length) {
      const which = ambiguousField(error.problem);
      offerCandidates("reservation-candidates", "reservation-candidates-title", "reservation-candidate-list",
        which === "pickup" ? reservationPickupField : reservationDestinationField, which, error.problem.candidates);
    }
  }
}

/** One booking as a list item: when, its state, from where to where; `cancellable` adds its Cancel button. */
function reservationItem(reservation, cancellable) {
  const item = element("li", "entry");
  item.dataset.reservation = reservation.reservationId;
  const pickupAt = when(Date.parse(reservation.pickupAt));
  const head = element("p", "entry-head");
  head.append(element("strong", "", pickupAt), ` · ${reservationStatusWords[reservation.status] || reservation.status}`);
  if (reservation.taxiId) head.append(` · taxi ${reservation.taxiId}`);
  const places = element("p", "places");
  describePlaces(places, reservation.reservationId, reservation.pickup, reservation.destination);
  item.append(head, places);
  if (reservation.meetingPoint) {
    item.append(element("p", "hint", `Meeting point: a ${spokenDuration(reservation.meetingPoint.walkS)} walk from where you asked.`));
  }
  if (cancellable) {
    const button = element("button", "danger small", "Cancel");
    button.type = "button";
    button.setAttribute("aria-label", `Cancel the booking for ${pickupAt}`);
    const problem = element("p", "error");
    problem.setAttribute("role", "alert");
    button.addEventListener("click", () => cancelReservation(reservation.reservationId, problem));
    item.append(button, problem);
  }
  return item;
}

/** Writes "From A to B" into `target`, from the labels kept at booking or the points' names. */
function describePlaces(target, id, pickup, destination) {
  const known = id ? labels.get(id) : null;
  const from = known?.pickup ? Promise.resolve(known.pickup) : placeName(pickup);
  const to = known?.destination ? Promise.resolve(known.destination) : destination ? placeName(destination) : Promise.resolve(null);
  Promise.all([from, to]).then(([a, b]) => {
    target.textContent = `From ${a}${b ? ` to ${b}` : ""}`;
  });
}

function fillList(id, items, empty) {
  byId(id).replaceChildren(...(items.length ? items : [element("li", "empty", empty)]));
}

async function listReservations() {
  try {
    const reservations = await session.call("GET", "/v1/reservations");
    fillList("reservation-list", reservations.map((reservation) => reservationItem(reservation, true)), "No booking yet.");
  } catch (error) {
    setText("reservation-error", error.message);
  }
}

async function cancelReservation(reservationId, problem) {
  problem.textContent = "";
  try {
    await session.call("DELETE", `/v1/reservations/${encodeURIComponent(reservationId)}`, undefined, { idempotent: true });
  } catch (error) {
    problem.textContent = error.message;
    return;
  }
  setText("reservation-result", "The booking is cancelled.");
  listReservations();
}

function reservationNotice(message) {
  const text = {
    reservation_allocated: `Your booked taxi ${message.taxiId} is allocated; it comes at ${message.pickupAt ? when(Date.parse(message.pickupAt)) : "the time booked"}.`,
    reservation_awaiting_taxi: "Your booking is looking for a taxi.",
    reservation_cancelled: message.reason === "outside_zones"
      ? "Your booking was cancelled: its pickup is outside the service area now."
      : "Your booking was cancelled.",
  }[message.kind];
  if (text) {
    setText("summary-text", text);
    byId("summary").dataset.tone = message.kind === "reservation_cancelled" ? "warn" : "good";
    byId("summary").hidden = false;
  }
  if (message.kind === "reservation_allocated" && message.rideId && !ride) takeUpRide(message.rideId);
  if (!byId("screen-reservations").hidden) listReservations();
}

// --------------------------------------------------------- history, profile

async function historyShown() {
  setText("history-error", "");
  let found;
  try {
    found = await session.call("GET", `/v1/history?days=${historyDays}`);
  } catch (error) {
    setText("history-error", error.message);
    return;
  }
  fillList("history-upcoming", found.upcoming.map((reservation) => reservationItem(reservation, false)), "No booking ahead.");
  fillList("history-past", found.past.map((entry) => {
    const item = element("li", "entry");
    item.dataset.outcome = entry.outcome;
    const head = element("p", "entry-head");
    head.append(element("strong", "", when(Date.parse(entry.endedAt))), ` · ${outcomeWords[entry.outcome] || entry.outcome}`);
    if (entry.taxiId) head.append(` · taxi ${entry.taxiId}`);
    item.append(head);
    if (entry.pickupAt) item.append(element("p", "", `Booked for ${when(Date.parse(entry.pickupAt))}`));
    const places = element("p", "places");
    describePlaces(places, entry.rideId || entry.reservationId, entry.pickup, entry.destination);
    item.append(places);
    return item;
  }), "No ride in the last 31 days.");
}

/** Changes the password: the other logins of the account end, this one goes on. */
async function changePassword(event) {
  event.preventDefault();
  const result = byId("password-result");
  result.classList.remove("error");
  const body = { currentPassword: byId("password-current").value, newPassword: byId("password-new").value };
  try {
    await session.call("PUT", "/v1/account/password", body);
  } catch (error) {
    result.classList.add("error");
    result.textContent = error.message;
    return;
  }
  byId("password-form").reset();
  result.textContent = "The password is changed; your other logins have ended.";
}

/** Asks to move the account to a new address: it keeps the old one until the link sent to the new one is opened. */
async function changeEmail(event) {
  event.preventDefault();
  const inputs = { password: "email-password", email: "email-new" };
  setText("email-result", "");
  setText("email-error", "");
  showProblems(inputs, []);
  const body = { password: byId("email-password").value, email: byId("email-new").value.trim() };
  let answer;
  try {
    answer = await session.call("PUT", "/v1/account/email", body);
  } catch (error) {
    // 400 names the address's problem, 409 says another account has it, 422 that the password is wrong.
    const errors = error.status === 409 ? [{ field: "email", problem: error.message }]
      : error.status === 422 ? [{ field: "password", problem: error.message }]
      : problemsOf(error);
    if (errors.length) showProblems(inputs, errors);
    else setText("email-error", error.message);
    return;
  }
  byId("email-form").reset();
  setText("email-result", answer.account?.email
    ? `${answer.detail.replace(/\.$/, "")}. Until then your account keeps ${answer.account.email}.`
    : answer.detail);
}

function profileShown() {
  setText("profile-username", session.username || "");
  setText("profile-clock", clock.rate === 1 ? "" : `The service runs on a simulated clock, ${clock.rate} times real time: it is ${when(clock.now())} there.`);
}

// ------------------------------------------------------------------ start

byId("login-form").addEventListener("submit", logIn);
byId("register-form").addEventListener("submit", register);
byId("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const token = byId("confirm-token").value.trim();
  if (token) confirmAddress(token, false);
  else setText("confirm-error", "Paste the token of the e-mail.");
});
byId("go-register").addEventListener("click", () => go("register"));
byId("register-go-login").addEventListener("click", () => go("login"));
byId("confirm-go-login").addEventListener("click", () => go("login"));
byId("go-forgot").addEventListener("click", () => {
  clearForgot("");
  go("forgot");
});
byId("forgot-form").addEventListener("submit", requestReset);
byId("forgot-go-login").addEventListener("click", () => go("login"));
byId("reset-form").addEventListener("submit", resetPassword);
byId("reset-go-login").addEventListener("click", () => go("login"));
byId("go-token").addEventListener("click", () => {
  setText("confirm-title", "Confirm your address");
  setText("confirm-note", "Paste the token of the confirmation e-mail.");
  go("confirm");
});
byId("request-form").addEventListener("submit", requestRide);
byId("destination").addEventListener("input", refreshShare);
byId("share-ride").addEventListener("change", refreshShareQuote);
byId("locate").addEventListener("click", locate);
byId("walk-there").addEventListener("click", walkThere);
byId("confirm-wait").addEventListener("click", confirmWait);
byId("cancel-ride").addEventListener("click", cancelRide);
byId("summary-close").addEventListener("click", () => { byId("summary").hidden = true; });
byId("reservation-form").addEventListener("submit", reserve);
byId("password-form").addEventListener("submit", changePassword);
byId("email-form").addEventListener("submit", changeEmail);
byId("logout").addEventListener("click", logOut);
window.addEventListener("hashchange", route);

await clock.read().catch(() => {});
clock.keepReading();
refreshShare();
if (session.loggedIn) enter();
route();
