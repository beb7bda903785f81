// The driver's tablet app (/driver): what a taxi driver needs on the shift,
// on the taxi's tablet. It logs in with the taxi id (which puts the taxi on
// duty, unavailable), switches between available and unavailable and shows
// the taxi's place in its zone's queue, shows an incoming offer (the pickup's
// and the destination's addresses, a countdown to its expiry) to accept or
// refuse, then the assigned ride: its route and ETA on the map and its steps
// (arrived, passenger aboard, completed, missing client once the wait at the
// pickup is over: counted down to the ride's `missingClientFrom`, the time
// the service gives). It lists the reservations allocated to the taxi (they
// cannot be refused) and the taxi's rides today.
//
// A shared ride: while the state has an `itinerary`, its stops are listed in
// order (the passenger, the seats, pick up or drop off, the address), each
// with the steps that apply to it, sent for that rider
// (`/v1/driver/ride/{step}?rideId=`): a pickup on the way, "Arrived" and
// "Aboard"; a pickup waited at, "Aboard" and "Missing client"; a drop-off
// whose rider is aboard, "Completed". The ride shown below the list is the
// next stop's, with its route and the demo's Drive.
//
// The whole state is `GET /v1/driver`: the push socket's first message
// carries it, and after each notification (offer, offer_timed_out,
// offer_withdrawn, taxi_joined_queue, ride_cancelled, reservation_allocated,
// itinerary)
// and every few seconds (the service marks a taxi arrived by itself, and
// stale, without telling the driver) it is read again.
//
// Position: the taxi is drawn where the service last had it (the state's
// `position`, whichever terminal sent it), or where this page last sent it
// when that is newer. The taxi's terminal normally streams its fixes. On a
// phone-as-terminal set-up this page is the terminal: with a device id (and
// key) entered once, it sends fixes over the OsmAnd protocol to /osmand on
// its own origin: the device's GPS position, a place tapped on the map ("Move
// the taxi here", e.g. to join a zone's queue), or, in the demo, "Drive":
// steps along the ride's route at a city speed, so that the service sees the
// taxi approach and arrive. Like a parked terminal, it repeats its last
// position (after a reload, the service's last position of the taxi) so that
// the taxi does not go stale. The route is the service's
// `GET /v1/rides/{rideId}/route`, shown with the offer already.
//
// Time: the service may run on a simulated clock (`GET /v1/clock`): the
// fixes' timestamps and every countdown use the service's time, derived from
// the browser's clock and the service's rate.
//
// Everything the service says (addresses, ids, its error words) is written
// as text, never as HTML; the page's policy lets no other script run.
import { APIError, ServiceClock, Session, setText, spokenDuration } from "./session.js";

const storageKeys = { session: "mytaxi.driver.session", device: "mytaxi.driver.device" };
// The demo's "Drive": a plausible city speed, one fix every few seconds of service time.
const driveSpeedKmh = 30;
const fixEveryServiceS = 5;
// A parked terminal still reports: the last position again after this long (the service's stale limit is 90 s).
const repeatFixAfterServiceS = 20;
const driverReadEveryMs = 3000;
const ridesTodayReadEveryMs = 60000;
const stateWords = {
  offDuty: "Off duty", unavailable: "Unavailable", available: "Available", offered: "Ride offered", busy: "On a ride",
};
const rideStatusWords = {
  assigned: "On the way to the pickup", arrived: "At the pickup: waiting for the passenger",
  aboard: "Passenger aboard: on the way to the destination",
};
const outcomeWords = {
  completed: "completed", client_missing: "client missing", cancelled: "cancelled", not_confirmed: "not confirmed",
  reservation_cancelled: "reservation cancelled", outside_zones: "outside the zones",
};
const stopStatusWords = {
  pickup: { assigned: "On the way", arrived: "Waiting at the pickup", aboard: "Aboard" },
  dropoff: { assigned: "After the pickup", arrived: "After the pickup", aboard: "Aboard: to the drop-off" },
};
// The steps that apply to a stop of a shared ride, by its kind and its rider's status: [step, button's text].
const stopSteps = {
  pickup: {
    assigned: [["arrived", "Arrived"], ["aboard", "Aboard"]],
    arrived: [["aboard", "Aboard"], ["missing-client", "Missing client"]],
  },
  dropoff: { aboard: [["completed", "Completed"]] },
};
const cancellationWords = {
  by_passenger: "the passenger cancelled it", not_confirmed: "the passenger did not confirm",
  outside_zones: "its pickup is outside the zones now",
};

const session = new Session(storageKeys.session, showLogin);
const clock = new ServiceClock(session);
const placeLabels = new Map();
let driver = null;
let map = null;
let outlinesDrawn = false;
let taxiMarker = null;
// The taxi's position drawn: the service's (`GET /v1/driver`) or this page's last fix, whichever is newer.
const shownFix = { point: null, serviceMs: 0, byThisDevice: false };
let chosenPlace = null;
let chosenMarker = null;
// The route drawn: which ride and phase it is for, its legs by name, its layer on the map.
const route = { key: null, legs: {}, layer: null };
let timers = [];
let driverRead = null;
let driverReadAgain = false;
let busyWithAction = false;
// The itinerary listed (as JSON), so that the list is made anew only when it changes.
let shownItinerary = "";
const terminal = { position: null, lastFixServiceMs: 0, gpsWatch: null, timer: null };
const drive = { on: false, legKey: null, travelledM: 0 };

// ---- Time (the service's clock, `clock`, is session.js's ServiceClock) ----

/** A countdown as a driver reads it: "12 s", "4:05". */
function countdownText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  if (whole < 60) return `${whole} s`;
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** A service time as the hour of the day (and the seconds, with `seconds`). */
function clockTime(iso, seconds = false) {
  return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", ...(seconds ? { second: "2-digit" } : {}) });
}

function distanceText(metres) {
  return metres < 1000 ? `${Math.round(metres)} m` : `${(metres / 1000).toFixed(1)} km`;
}

// ---- Login ----

function showLogin() {
  stopTimers();
  stopGps();
  drive.on = false;
  document.getElementById("app-screen").hidden = true;
  document.getElementById("login-screen").hidden = false;
  document.getElementById("taxi-id").focus();
}

document.getElementById("login").addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = document.getElementById("login-button");
  setText("login-error", "");
  button.disabled = true;
  try {
    const taxiId = document.getElementById("taxi-id").value.trim().toUpperCase();
    await session.logIn(taxiId, document.getElementById("password").value, "driver");
    document.getElementById("password").value = "";
    await enter();
  } catch (error) {
    setText("login-error", error.message);
  } finally {
    button.disabled = false;
  }
});

document.getElementById("logout").addEventListener("click", async () => {
  try {
    await session.call("DELETE", "/v1/sessions/current");
  } catch (error) {
    if (error instanceof APIError && error.status === 401) return;
    showMessage(error.message, "error");
    return;
  }
  session.closePush();
  session.forget();
  showLogin();
});

/** The app after a login (or a reload that kept it): the map, the state, the push socket. */
async function enter() {
  document.getElementById("login-screen").hidden = true;
  document.getElementById("app-screen").hidden = false;
  setText("taxi-title", `Taxi ${session.username}`);
  showMessage("", "");
  startMap();
  loadDeviceSettings();
  try {
    await clock.read();
  } catch (error) {
    showMessage(`Cannot read the service's clock: ${error.message}`, "error");
  }
  drawOutlines();
  await readDriver();
  if (!session.loggedIn) return;
  session.openPush(onPush, (open) => setText("connection", open ? "Connected" : "Reconnecting..."));
  readRidesToday();
  showReservations();
  stopTimers();
  timers = [
    setInterval(tick, 250),
    setInterval(readDriver, driverReadEveryMs),
    setInterval(readRidesToday, ridesTodayReadEveryMs),
    clock.keepReading(),
  ];
  scheduleTerminal();
}

function stopTimers() {
  timers.forEach(clearInterval);
  timers = [];
  clearTimeout(terminal.timer);
}

function showMessage(text, kind) {
  const message = document.getElementById("message");
  message.textContent = text;
  message.className = kind;
}

// ---- The map ----

function startMap() {
  if (map) {
    map.invalidateSize();
    return;
  }
  map = L.map("map").setView([40.758, -73.985], 14);
  map.createPane("outlines").style.zIndex = 350;
  map.on("click", (event) => choosePlace(event.latlng));
  // A keyboard user chooses the map's centre with Enter (the arrow keys move the map).
  map.on("keydown", (event) => {
    if (event.originalEvent.key === "Enter") choosePlace(map.getCenter());
  });
}

/** The roads and the zones' outlines, when the service shows them to drivers (else the markers only). */
async function drawOutlines() {
  if (outlinesDrawn) return;
  outlinesDrawn = true;
  const [roads, zones] = await Promise.all([
    session.call("GET", "/v1/roads").catch(() => null),
    session.call("GET", "/v1/zones").catch(() => null),
  ]);
  if (zones) {
    L.geoJSON(zones, {
      pane: "outlines", interactive: false,
      style: () => ({ className: "zone", weight: 1.5, fill: false, dashArray: "4 4" }),
    }).addTo(map);
  }
  if (roads) {
    const layer = L.geoJSON(roads, { pane: "outlines", interactive: false, style: () => ({ className: "road", weight: 1, opacity: 0.8 }) }).addTo(map);
    if (!route.key && !taxiMarker && roads.features.length) map.fitBounds(layer.getBounds(), { animate: false });
  }
}

/** An element holding `text` as text: Leaflet writes a string tooltip as HTML. */
function textElement(text) {
  const element = document.createElement("span");
  element.textContent = String(text ?? "");
  return element;
}

/**
 * The taxi at `point`, a fix of service time `serviceMs`, sent by this page or not; an older fix than the one
 * drawn is passed over. The first position, with no route drawn, centres the map on the taxi.
 */
function showTaxiAt(point, serviceMs, byThisDevice) {
  if (shownFix.point && serviceMs < shownFix.serviceMs) return;
  // The service's copy of the fix this page sent (or of one already drawn) is nothing new.
  if (shownFix.point && serviceMs === shownFix.serviceMs && (shownFix.byThisDevice || !byThisDevice)) return;
  Object.assign(shownFix, { point, serviceMs, byThisDevice });
  const where = [point.lat, point.lon];
  if (!taxiMarker) {
    taxiMarker = L.circleMarker(where, { radius: 11, weight: 3, color: "#212121", fillColor: "#fdd835", fillOpacity: 1, className: "own-taxi" })
      .bindTooltip(textElement(`Taxi ${session.username}`)).addTo(map);
    if (!route.key) map.setView(where, Math.max(map.getZoom(), 15), { animate: false });
  }
  taxiMarker.setLatLng(where);
  taxiMarker.bringToFront();
  showPosition("");
}

function choosePlace(latlng) {
  chosenPlace = { lon: latlng.lng, lat: latlng.lat };
  if (chosenMarker) chosenMarker.remove();
  chosenMarker = L.circleMarker(latlng, { radius: 8, weight: 3, color: "#1565c0", fillOpacity: 0.2, className: "chosen-place" })
    .bindTooltip(textElement("Chosen place")).addTo(map);
  const button = document.getElementById("move-here");
  button.disabled = false;
  button.textContent = `Move the taxi here (${chosenPlace.lat.toFixed(5)}, ${chosenPlace.lon.toFixed(5)})`;
}

document.getElementById("move-here").addEventListener("click", async () => {
  if (!chosenPlace) return;
  drive.on = false;
  showDriveButton();
  if (await sendFix(chosenPlace, 0, 0)) {
    chosenMarker.remove();
    chosenMarker = null;
    chosenPlace = null;
    const button = document.getElementById("move-here");
    button.disabled = true;
    button.textContent = "Move the taxi here";
    readDriver();
  }
});

// ---- The driver's state ----

/** Reads `GET /v1/driver` again; reads asked for while one is under way make one more. */
async function readDriver() {
  if (driverRead) {
    driverReadAgain = true;
    return driverRead;
  }
  driverRead = (async () => {
    do {
      driverReadAgain = false;
      try {
        render(await session.call("GET", "/v1/driver"));
      } catch (error) {
        if (session.loggedIn) setText("connection", `Cannot reach the service: ${error.message}`);
      }
    } while (driverReadAgain && session.loggedIn);
  })();
  try {
    await driverRead;
  } finally {
    driverRead = null;
  }
}

function onPush(message) {
  if (message.kind === "state") {
    if (message.driver) render(message.driver);
    return;
  }
  if (message.kind === "reservation_allocated") rememberReservation(message);
  const notice = noticeOf(message);
  if (notice) showMessage(notice, "notice");
  if (message.kind === "ride_cancelled") readRidesToday();
  readDriver();
}

/** What the driver is told of a notification, when more than the state shows. */
function noticeOf(message) {
  switch (message.kind) {
    case "offer_timed_out": return `The offer of ride ${message.rideId} was not answered in time: it went to the next taxi.`;
    case "offer_withdrawn": return `The offer of ride ${message.rideId} was withdrawn.`;
    case "ride_cancelled": return `Ride ${message.rideId} is cancelled: ${cancellationWords[message.reason] || message.reason}.`;
    case "reservation_allocated": return `Reservation ${message.reservationId} is allocated to this taxi: pickup at ${clockTime(message.pickupAt)}.`;
    default: return "";
  }
}

function render(state) {
  const endedRide = driver?.ride && (!state.ride || state.ride.rideId !== driver.ride.rideId);
  driver = state;
  setText("state-text", stateWords[state.state] + (state.stale ? " (no recent position: no offer until the taxi reports again)" : ""));
  setText("queue-text", queueText(state));
  const availability = document.getElementById("availability");
  const available = state.state === "available";
  availability.textContent = available ? "Go unavailable" : "Go available";
  availability.setAttribute("aria-pressed", String(available));
  availability.hidden = !["available", "unavailable"].includes(state.state);
  availability.disabled = busyWithAction;
  if (state.position) servicePosition(state.position);
  renderOffer(state.offer);
  renderRide(state.ride);
  renderItinerary(state.itinerary?.length ? state.itinerary : null);
  showRoute(state);
  if (endedRide) readRidesToday();
}

function queueText(state) {
  if (state.state === "available") {
    if (state.queuePosition) return `Place ${state.queuePosition} in the queue of zone ${state.zoneId}`;
    return state.zoneId ? `Joining the queue of zone ${state.zoneId}` : "Not in a zone: the taxi joins a queue once it reports from inside one";
  }
  return state.zoneId ? `In zone ${state.zoneId}` : "Not in a zone";
}

document.getElementById("availability").addEventListener("click", () => {
  const available = driver?.state !== "available";
  act("PUT", "/v1/driver/availability", { available });
});

/** One of the driver's calls; its answer is the taxi's new state, a refusal the service's words. */
async function act(method, path, body) {
  busyWithAction = true;
  document.querySelectorAll("#duty button, #offer button, #ride .buttons button, #itinerary button").forEach((button) => { button.disabled = true; });
  showMessage("", "");
  try {
    const answer = await session.call(method, path, body, { idempotent: true });
    busyWithAction = false;
    render(answer);
  } catch (error) {
    busyWithAction = false;
    showMessage(error.message, "error");
    await readDriver();
  }
}

// ---- The offer ----

function renderOffer(offer) {
  document.getElementById("offer").hidden = !offer;
  if (!offer) return;
  showPlace("offer-pickup", offer.pickup);
  showPlace("offer-destination", offer.destination);
  document.getElementById("accept").disabled = busyWithAction;
  document.getElementById("refuse").disabled = busyWithAction;
  tick();
}

document.getElementById("accept").addEventListener("click", () => act("POST", "/v1/driver/offer/accept"));
document.getElementById("refuse").addEventListener("click", () => act("POST", "/v1/driver/offer/refuse"));

/** The address of `point` in the element `id` (its coordinates while none is known); "none" without a point. */
async function showPlace(id, point) {
  const element = document.getElementById(id);
  const key = point ? `${point.lon},${point.lat}` : "none";
  if (element.dataset.point === key) return;
  element.dataset.point = key;
  if (!point) {
    element.textContent = "none given";
    return;
  }
  element.textContent = coordinates(point);
  const label = await placeLabel(point);
  if (element.dataset.point === key) element.textContent = label;
}

function coordinates(point) {
  return `${point.lat.toFixed(5)}, ${point.lon.toFixed(5)}`;
}

/** The point's address (`GET /v1/places/reverse`), or its coordinates when nothing named is near. */
function placeLabel(point) {
  const key = `${point.lon},${point.lat}`;
  if (!placeLabels.has(key)) {
    placeLabels.set(key, session.call("GET", `/v1/places/reverse?lon=${point.lon}&lat=${point.lat}`)
      .then((place) => place.label)
      .catch(() => coordinates(point)));
  }
  return placeLabels.get(key);
}

// ---- The ride ----

function renderRide(ride) {
  document.getElementById("ride").hidden = !ride;
  if (!ride) {
    drive.on = false;
    showDriveButton();
    return;
  }
  const name = ride.reservationId ? `${ride.rideId} (reservation ${ride.reservationId})` : ride.rideId;
  setText("ride-title", driver.itinerary ? `Next stop: ride ${name}` : `Ride ${name}`);
  setText("ride-status", rideStatusWords[ride.status] || ride.status);
  showPlace("ride-pickup", ride.pickup);
  showPlace("ride-destination", ride.destination);
  const enabled = {
    arrived: ride.status === "assigned",
    aboard: ride.status === "assigned" || ride.status === "arrived",
    completed: ride.status === "aboard",
    "missing-client": ride.status === "arrived" && missingClientWaitLeftS(ride) <= 0,
  };
  for (const [id, on] of Object.entries(enabled)) document.getElementById(id).disabled = busyWithAction || !on;
  // On a shared ride the steps are the itinerary's, each for its rider.
  document.getElementById("ride-steps").hidden = Boolean(driver.itinerary);
  showDriveButton();
  tick();
}

for (const [id, step] of [["arrived", "arrived"], ["aboard", "aboard"], ["completed", "completed"], ["missing-client", "missing-client"]]) {
  document.getElementById(id).addEventListener("click", () => act("POST", `/v1/driver/ride/${step}`));
}

// ---- A shared ride's itinerary ----

/** The stops still to make, in order, each with the steps that apply to it; null: no shared ride. */
function renderItinerary(stops) {
  document.getElementById("shared-ride").hidden = !stops;
  const key = stops ? JSON.stringify(stops) : "";
  if (key !== shownItinerary) {
    shownItinerary = key;
    document.getElementById("itinerary").replaceChildren(...(stops || []).map(stopItem));
  }
  document.querySelectorAll("#itinerary button").forEach((button) => { button.disabled = busyWithAction; });
  tick();
}

/** One stop as a list item: pick up or drop off, the passenger and seats, the address, the rider's status, its steps. */
function stopItem(stop) {
  const item = document.createElement("li");
  item.dataset.rideId = stop.rideId;
  item.dataset.stop = stop.stop;
  const head = document.createElement("p");
  const kind = document.createElement("strong");
  kind.className = "stop-kind";
  kind.textContent = stop.stop === "pickup" ? "Pick up" : "Drop off";
  head.append(kind, ` ${stop.passengerId}, ${stop.seats} ${stop.seats === 1 ? "seat" : "seats"} (ride ${stop.rideId})`);
  const place = document.createElement("p");
  place.textContent = coordinates(stop.point);
  placeLabel(stop.point).then((label) => { place.textContent = label; });
  const status = document.createElement("p");
  status.className = "stop-status";
  status.textContent = stopStatusText(stop);
  item.append(head, place, status);
  const steps = stopSteps[stop.stop][stop.status] || [];
  if (steps.length) {
    const buttons = document.createElement("div");
    buttons.className = "buttons";
    buttons.append(...steps.map(([step, text]) => stepButton(stop, step, text)));
    item.append(buttons);
  }
  return item;
}

function stopStatusText(stop) {
  const words = stopStatusWords[stop.stop][stop.status] || stop.status;
  return stop.arrivedAt && stop.status === "arrived" && stop.stop === "pickup" ? `${words} since ${clockTime(stop.arrivedAt)}` : words;
}

/** A step's button for one rider's stop: it reports the step for that rider. */
function stepButton(stop, step, text) {
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.step = step;
  button.textContent = text;
  button.setAttribute("aria-label", `${text}: ${stop.passengerId}, ride ${stop.rideId}`);
  button.addEventListener("click", () => act("POST", `/v1/driver/ride/${step}?rideId=${encodeURIComponent(stop.rideId)}`));
  return button;
}

/** The button of `step` at the stop of ride `rideId` (`pickup` or `dropoff`), when the itinerary shows it. */
function stopButton(rideId, stop, step) {
  return document.querySelector(`#itinerary li[data-ride-id="${CSS.escape(rideId)}"][data-stop="${stop}"] button[data-step="${step}"]`);
}

/** The seconds (service time) until a missing client may be reported: the service says from when (`missingClientFrom`). */
function missingClientWaitLeftS(ride) {
  if (!ride.missingClientFrom) return 0;
  return (Date.parse(ride.missingClientFrom) - clock.now()) / 1000;
}

/**
 * The route of the offer or the ride the taxi has (`GET /v1/rides/{rideId}/route`): its legs to the
 * pickup (while offered or on the way) and to the destination on the map, with their times and lengths.
 * It is read again when the ride moves on (accepted, arrived, passenger aboard), else kept: the drive follows it.
 */
function showRoute(state) {
  const ride = state.ride || state.offer;
  if (!ride) {
    clearRoute();
    return;
  }
  const key = `${ride.rideId} ${state.offer ? "offered" : state.ride.status}`;
  if (route.key === key) return;
  route.key = key;
  readRoute(ride, key);
}

async function readRoute(ride, key) {
  let legs;
  try {
    legs = (await session.call("GET", `/v1/rides/${encodeURIComponent(ride.rideId)}/route`)).features;
  } catch (error) {
    if (route.key === key) showRouteText(`No route: ${error.message}`);
    return;
  }
  if (route.key !== key) return;
  route.legs = Object.fromEntries(legs.map((leg) => [leg.properties.leg, leg]));
  showRouteText(routeText());
  if (route.layer) route.layer.remove();
  route.layer = L.layerGroup().addTo(map);
  L.geoJSON({ type: "FeatureCollection", features: legs }, {
    interactive: false,
    style: (feature) => ({
      className: feature.properties.leg === "toPickup" ? "route-to-pickup" : "route-to-destination", weight: 6, opacity: 0.85,
    }),
  }).addTo(route.layer);
  const pickup = L.circleMarker([ride.pickup.lat, ride.pickup.lon], { radius: 10, weight: 3, color: "#2e7d32", fillOpacity: 0.5, className: "pickup" })
    .bindTooltip(textElement("Pickup")).addTo(route.layer);
  const bounds = L.latLngBounds([pickup.getLatLng()]);
  if (ride.destination) {
    const destination = L.circleMarker([ride.destination.lat, ride.destination.lon],
      { radius: 10, weight: 3, color: "#6a1b9a", fillOpacity: 0.5, className: "destination" })
      .bindTooltip(textElement("Destination")).addTo(route.layer);
    bounds.extend(destination.getLatLng());
  }
  legs.forEach((leg) => leg.geometry.coordinates.forEach(([lon, lat]) => bounds.extend([lat, lon])));
  map.fitBounds(bounds.pad(0.15), { animate: false });
  if (taxiMarker) taxiMarker.bringToFront();
}

function showRouteText(text) {
  setText("offer-route", text);
  setText("ride-route", text);
}

/** The legs' times and lengths: to the pickup (while on the way), then to the destination. */
function routeText() {
  const leg = (name) => `${spokenDuration(route.legs[name].properties.durationS)}, ${distanceText(route.legs[name].properties.distanceM)}`;
  const parts = [];
  if (route.legs.toPickup) parts.push(`To the pickup: ${leg("toPickup")}`);
  if (route.legs.toDestination) parts.push(`${parts.length ? "Then to the destination" : "To the destination"}: ${leg("toDestination")}`);
  return parts.join(". ");
}

function clearRoute() {
  if (route.layer) route.layer.remove();
  route.layer = null;
  route.key = null;
  route.legs = {};
  showRouteText("");
}

// ---- Countdowns ----

/** Updates the countdowns (service time) of the offer and of the wait for a missing client. */
function tick() {
  const offer = driver?.offer;
  if (offer) {
    const left = (Date.parse(offer.expiresAt) - clock.now()) / 1000;
    setText("offer-countdown", left > 0 ? `Answer within ${countdownText(left)}` : "Time is up");
  }
  const ride = driver?.ride;
  let missingClientText = "";
  if (ride && ride.status === "arrived") {
    const left = missingClientWaitLeftS(ride);
    const who = driver.itinerary ? ` for ride ${ride.rideId}` : "";
    missingClientText = left > 0 ? `Missing client${who} can be reported in ${countdownText(left)}` : "";
    if (!driver.itinerary) document.getElementById("missing-client").disabled = busyWithAction || left > 0;
  }
  // Each rider waited at on a shared ride: its "Missing client" from its own time.
  for (const stop of driver?.itinerary || []) {
    const button = stop.stop === "pickup" && stop.status === "arrived" && stopButton(stop.rideId, "pickup", "missing-client");
    if (button) button.disabled = busyWithAction || missingClientWaitLeftS(stop) > 0;
  }
  setText("missing-client-countdown", missingClientText);
}

// ---- Reservations ----

function reservationsKey() {
  return `mytaxi.driver.reservations.${session.username}`;
}

function storedReservations() {
  return JSON.parse(localStorage.getItem(reservationsKey()) || "[]");
}

function rememberReservation(notice) {
  const reservations = storedReservations().filter((kept) => kept.reservationId !== notice.reservationId);
  reservations.push({
    reservationId: notice.reservationId, rideId: notice.rideId, pickupAt: notice.pickupAt,
    pickup: notice.pickup, destination: notice.destination,
  });
  reservations.sort((a, b) => Date.parse(a.pickupAt) - Date.parse(b.pickupAt));
  localStorage.setItem(reservationsKey(), JSON.stringify(reservations));
  showReservations();
}

/** The reservations allocated to the taxi whose pickup is not long past (an hour after it, they are dropped). */
async function showReservations() {
  const reservations = storedReservations().filter((kept) => Date.parse(kept.pickupAt) > clock.now() - 3600000);
  localStorage.setItem(reservationsKey(), JSON.stringify(reservations));
  document.getElementById("reservations-section").hidden = reservations.length === 0;
  const items = await Promise.all(reservations.map(async (reservation) => {
    const item = document.createElement("li");
    const destination = reservation.destination ? ` to ${await placeLabel(reservation.destination)}` : "";
    const pickupAt = new Date(reservation.pickupAt).toLocaleString([], { weekday: "short", hour: "2-digit", minute: "2-digit" });
    item.textContent = `${pickupAt}: ${await placeLabel(reservation.pickup)}${destination} (ride ${reservation.rideId})`;
    return item;
  }));
  document.getElementById("reservations").replaceChildren(...items);
}

// ---- Rides today ----

async function readRidesToday() {
  let rides;
  try {
    rides = await session.call("GET", "/v1/driver/rides?days=1");
  } catch (error) {
    return;
  }
  const items = await Promise.all(rides.map(async (ride) => {
    const item = document.createElement("li");
    const destination = ride.destination ? ` to ${await placeLabel(ride.destination)}` : "";
    item.textContent = `${clockTime(ride.endedAt)} ${ride.rideId || ride.reservationId}, ${outcomeWords[ride.outcome] || ride.outcome}: ` +
      `from ${await placeLabel(ride.pickup)}${destination}`;
    return item;
  }));
  if (!items.length) {
    const empty = document.createElement("li");
    empty.className = "empty";
    empty.textContent = "No ride yet today";
    items.push(empty);
  }
  document.getElementById("rides-today").replaceChildren(...items);
  showReservations();
}

// ---- This device as the terminal (OsmAnd fixes to /osmand) ----

function deviceSettings() {
  return JSON.parse(localStorage.getItem(storageKeys.device) || "{}");
}

function loadDeviceSettings() {
  const settings = deviceSettings();
  document.getElementById("device-id").value = settings.deviceId || "";
  document.getElementById("device-key").value = settings.key || "";
  document.getElementById("use-gps").checked = Boolean(settings.useGps);
  if (settings.useGps) startGps();
  showPosition("");
}

function saveDeviceSettings() {
  localStorage.setItem(storageKeys.device, JSON.stringify({
    deviceId: document.getElementById("device-id").value.trim(),
    key: document.getElementById("device-key").value,
    useGps: document.getElementById("use-gps").checked,
  }));
}

document.getElementById("device-form").addEventListener("submit", (event) => {
  event.preventDefault();
  saveDeviceSettings();
  document.getElementById("position-settings").open = false;
  showPosition("Saved.");
});

document.getElementById("use-gps").addEventListener("change", (event) => {
  saveDeviceSettings();
  if (event.target.checked) startGps(); else stopGps();
});

function startGps() {
  if (terminal.gpsWatch !== null) return;
  if (!navigator.geolocation) {
    showPosition("This browser gives no position.");
    return;
  }
  terminal.gpsWatch = navigator.geolocation.watchPosition(
    (position) => {
      if (drive.on) return;
      const { longitude, latitude, speed, heading } = position.coords;
      sendFix({ lon: longitude, lat: latitude }, speed ? speed * 3.6 : 0, heading || 0);
    },
    (error) => showPosition(`No GPS position: ${error.message}`),
    { enableHighAccuracy: true, maximumAge: 5000 },
  );
}

function stopGps() {
  if (terminal.gpsWatch === null) return;
  navigator.geolocation.clearWatch(terminal.gpsWatch);
  terminal.gpsWatch = null;
}

/**
 * The taxi's last position as the service has it (`GET /v1/driver`): drawn when newer than what this page sent.
 * A page that is the taxi's terminal (a device id entered) and has sent nothing since it was loaded takes it up
 * as its own last position, so that it goes on repeating it.
 */
function servicePosition(position) {
  const serviceMs = Date.parse(position.time);
  const point = { lon: position.lon, lat: position.lat };
  if (!terminal.position && deviceSettings().deviceId) {
    terminal.position = point;
    terminal.lastFixServiceMs = serviceMs;
  }
  showTaxiAt(point, serviceMs, false);
}

/** The position line: where the taxi was last put (by this page, or as the service has it), and `note`. */
function showPosition(note) {
  let where;
  if (shownFix.byThisDevice) where = `Sent by this device: ${coordinates(shownFix.point)}`;
  else if (shownFix.point) where = `Last position: ${coordinates(shownFix.point)} at ${clockTime(new Date(shownFix.serviceMs).toISOString(), true)}`;
  else where = deviceSettings().deviceId ? "Not sent yet by this device" : "No position from the taxi's terminal yet";
  setText("position-text", note ? `${where}. ${note}` : where);
}

/** This device's id and key for its fixes; null, and the driver asked for them, when no id is entered. */
function deviceOrAsk() {
  const settings = deviceSettings();
  if (settings.deviceId) return settings;
  document.getElementById("position-settings").open = true;
  document.getElementById("device-id").focus();
  showMessage("Enter this device's id (under \"This device as the taxi's terminal\") to send the taxi's position.", "error");
  return null;
}

/** One OsmAnd fix of this device at `point` (service time); true when the service took it. */
async function sendFix(point, speedKmh, bearing) {
  const device = deviceOrAsk();
  if (!device) return false;
  const { deviceId, key } = device;
  const timestamp = Math.floor(clock.now() / 1000);
  const parameters = new URLSearchParams({
    id: deviceId, lat: point.lat.toFixed(7), lon: point.lon.toFixed(7), timestamp: String(timestamp),
    speed: (speedKmh / 1.852).toFixed(1), bearing: String(Math.round(bearing)),
  });
  if (key) parameters.set("key", key);
  let answer;
  try {
    answer = await fetch(`/osmand?${parameters}`, { method: "POST" });
  } catch (error) {
    showPosition(`Not sent: ${error.message}`);
    return false;
  }
  const text = (await answer.text()).trim();
  terminal.lastFixServiceMs = timestamp * 1000;
  if (!answer.ok || text) {
    showPosition(`The service refused it: ${text || answer.status}`);
    return false;
  }
  terminal.position = point;
  showTaxiAt(point, timestamp * 1000, true);
  showPosition("");
  return true;
}

/** Every few seconds of service time: a step of the drive, or the parked taxi's last position again. */
function scheduleTerminal() {
  clearTimeout(terminal.timer);
  terminal.timer = setTimeout(async () => {
    if (!session.loggedIn) return;
    const leg = drive.on ? currentLeg() : null;
    if (leg) await driveStep(leg);
    else if (terminal.position && deviceSettings().deviceId && clock.now() - terminal.lastFixServiceMs >= repeatFixAfterServiceS * 1000) {
      await sendFix(terminal.position, 0, 0);
    }
    scheduleTerminal();
  }, Math.max(100, clock.realMs(fixEveryServiceS)));
}

// ---- Drive (demo) ----

document.getElementById("drive").addEventListener("click", () => {
  if (!drive.on && !deviceOrAsk()) return;
  drive.on = !drive.on;
  showDriveButton();
});

function showDriveButton() {
  const button = document.getElementById("drive");
  button.setAttribute("aria-pressed", String(drive.on));
  button.textContent = drive.on ? "Stop driving (demo)" : "Drive (demo)";
}

/** The leg the taxi drives now, ending at the ride's point itself: to the pickup, or, aboard, to the destination. */
function currentLeg() {
  const ride = driver?.ride;
  if (!ride) return null;
  const [name, end] = ride.status === "assigned" ? ["toPickup", ride.pickup] : ride.status === "aboard" ? ["toDestination", ride.destination] : [];
  const feature = route.legs[name];
  if (!feature || !end) return null;
  const points = feature.geometry.coordinates.map(([lon, lat]) => ({ lon, lat }));
  points.push(end);
  return { key: `${ride.rideId} ${name}`, points };
}

async function driveStep(leg) {
  if (drive.legKey !== leg.key) {
    drive.legKey = leg.key;
    drive.travelledM = 0;
  }
  drive.travelledM += (driveSpeedKmh / 3.6) * fixEveryServiceS;
  const { point, bearing, atEnd } = pointAlong(leg.points, drive.travelledM);
  await sendFix(point, atEnd ? 0 : driveSpeedKmh, bearing);
  if (atEnd) readDriver();
}

/** The point `metres` along the line `points`, the bearing there, and whether it is the line's end. */
function pointAlong(points, metres) {
  let left = metres;
  for (let index = 1; index < points.length; index += 1) {
    const from = points[index - 1];
    const to = points[index];
    const length = metresBetween(from, to);
    if (left <= length && length > 0) {
      const share = left / length;
      return {
        point: { lon: from.lon + (to.lon - from.lon) * share, lat: from.lat + (to.lat - from.lat) * share },
        bearing: bearingBetween(from, to), atEnd: false,
      };
    }
    left -= length;
  }
  const last = points[points.length - 1];
  return { point: last, bearing: points.length > 1 ? bearingBetween(points[points.length - 2], last) : 0, atEnd: true };
}

function metresBetween(a, b) {
  const radians = Math.PI / 180;
  const x = (b.lon - a.lon) * radians * Math.cos(((a.lat + b.lat) / 2) * radians);
  const y = (b.lat - a.lat) * radians;
  return Math.hypot(x, y) * 6371000;
}

function bearingBetween(a, b) {
  const radians = Math.PI / 180;
  const x = (b.lon - a.lon) * Math.cos(((a.lat + b.lat) / 2) * radians);
  const y = b.lat - a.lat;
  return (Math.atan2(x, y) / radians + 360) % 360;
}

if (session.loggedIn) enter(); else showLogin();
