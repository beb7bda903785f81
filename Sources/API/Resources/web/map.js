// The dispatcher's live map: logs in, draws the zones (coloured by their
// free taxis, or by the expected wait there), the main roads and the taxis, keeps them up to
// date (the push socket's decisions and a fleet read every few seconds for
// positions), draws the zones again when a new zone set is put in force
// (the push socket's `zones_changed`), and shows a zone's queues and the
// nearest zones with free taxis where the dispatcher clicks. On demand it
// colours the roads whose speeds the fleet taught the router (red slower
// than the speed profile, green faster), read again every minute.
//
// Planners colour the zones by a statistic of the days they choose instead
// (GET /v1/stats/zones, by day: requests, rides served, cancellations,
// refusals, waits, taxis and passengers in the queues), read once per
// choice of the days, not with the fleet: each zone's value sets its colour
// on a 4-step scale by the quartiles over the zones, grey where there is no
// figure, and shows in its tooltip and its panel.
//
// At street zoom it writes the street names of the road graph
// (GET /v1/roads/names), so that a dispatcher can place a caller.
//
// The phone-booking panel books a ride for a caller by address: the
// address fields suggest places as they are typed (GET /v1/places), a
// suggestion chosen is sent as its point and shown on the map, a typed
// address as text for the service to resolve; an address the service is
// not sure of comes back with its candidates to choose from. A click on
// the map names the place (GET /v1/places/reverse), to take as the pickup.
// The panel books for now (POST /v1/rides) or ahead (POST /v1/reservations,
// a pickup time 2 to 48 h ahead, in the city's time), for a party of 1 to 8
// (`seats`). The open rides are listed and read again with the fleet.
//
// The phone desk (map-phone-desk.js, loaded before this script) lists the
// callers' rides of the day and their bookings ahead, and looks a ride or a
// caller up; it makes its calls through `call` below, never holding the token.
//
// The login lasts the browser tab's session: the token is kept in the
// tab's sessionStorage (gone when the tab closes, never shared with other
// tabs) so that reloading the page does not ask again; "Log out" revokes it.
//
// Everything the page shows from the service (zone names and ids, taxi
// ids, passengers, street names) is written as text (textContent, text
// nodes), never as HTML, and the whole script is one closure, so that the
// bearer token is not a global; the page's policy lets no other script run.
"use strict";
(() => {
  const stateColours = { available: "#2e7d32", offered: "#f9a825", busy: "#c62828" };
  const map = L.map("map", { preferCanvas: false }).setView([40.758, -73.985], 13);
  // Zones in a pane of their own beneath the roads and taxis, so that zones drawn again stay beneath them.
  map.createPane("zones").style.zIndex = 350;
  let token = null;
  let zoneLayer = null;
  const zoneLayers = new Map();
  const taxiMarkers = new Map();
  let fleet = [];
  const expectedWaits = new Map();
  let refreshQueued = false;
  let roadSpeedLayer = null;
  const streetNames = L.layerGroup().addTo(map);
  const streetNameZoom = 16;
  const sessionKey = "mytaxi.map.session";
  const roleKey = "mytaxi.map.role";
  // The login's role: only a dispatcher has the phone desk and the open rides, and a planner no push socket.
  let role = sessionStorage.getItem(roleKey) || "dispatcher";
  // Each booking field's suggestions by label, and the point chosen for it (a suggestion, a candidate, a click).
  const bookingFields = { pickup: "pickup-address", destination: "destination-address" };
  const suggestions = { pickup: new Map(), destination: new Map() };
  const chosen = { pickup: null, destination: null };
  const chosenMarkers = { pickup: null, destination: null };
  let clickedPlace = null;
  let desk = null;
  // The zones coloured by a statistic: each zone's totals over the days held (and those days), the chosen
  // statistic's value per zone and the steps of its scale, made again when the figures or the choice change.
  const zoneTotals = new Map();
  let statisticDays = null;
  let statisticValues = new Map();
  let statisticSteps = [];
  // Counts the reads of the statistics, so that an answer overtaken by a later choice is dropped.
  let statisticReads = 0;
  // The zone the panel shows (its id), null when it is closed.
  let panelZone = null;
  // Each zone's tooltip text as set, so that the fleet's refreshes set again only those that changed.
  const tooltipTexts = new Map();
  // What the zones can be coloured by: its words, how its value reads, and which palette it takes.
  const statistics = {
    requests: { label: "requests", kind: "count", palette: "amount" },
    served: { label: "rides served", kind: "count", palette: "amount" },
    cancelledByPassenger: { label: "rides cancelled by the passenger", kind: "count", palette: "worse", of: (total) => total.cancelled?.byPassenger },
    refused: { label: "offers refused", kind: "count", palette: "worse" },
    waitP50S: { label: "median wait", kind: "duration", palette: "worse" },
    waitP90S: { label: "90th percentile wait", kind: "duration", palette: "worse" },
    timeToOfferP50S: { label: "median time to an offer", kind: "duration", palette: "worse" },
    taxisAvailable: { label: "taxis available on average", kind: "average", palette: "amount" },
    passengersQueued: { label: "passengers queued on average", kind: "average", palette: "worse" },
  };
  for (const [key, statistic] of Object.entries(statistics)) statistic.of ??= (total) => total[key];
  // Light to dark (ColorBrewer's sequential Blues and OrRd): blue for how much there was, orange to red where more is
  // worse (longer waits, refusals, cancellations, passengers left waiting), so that dark means "look here" in both.
  const palettes = { amount: ["#eff3ff", "#bdd7e7", "#6baed6", "#2171b5"], worse: ["#fef0d9", "#fdcc8a", "#fc8d59", "#d7301f"] };
  const noFigure = "#bdbdbd";

  async function api(path, options = {}) {
    const headers = Object.assign({ Authorization: "Bearer " + token }, options.body ? { "Content-Type": "application/json" } : {});
    const answer = await fetch(path, Object.assign({}, options, { headers }));
    if (!answer.ok) throw new Error(path + ": " + answer.status);
    return answer.json();
  }

  // A call to the service that does not throw on a refusal: {ok, status, body} (body null when there is none).
  async function call(method, path, body) {
    const headers = Object.assign({ Authorization: "Bearer " + token }, body ? { "Content-Type": "application/json" } : {});
    try {
      const answer = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
      const text = await answer.text();
      let parsed = null;
      try { parsed = text ? JSON.parse(text) : null; } catch (error) { parsed = null; }
      return { ok: answer.ok, status: answer.status, body: parsed };
    } catch (error) {
      return { ok: false, status: 0, body: { detail: "the service cannot be reached" } };
    }
  }

  document.getElementById("login").addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = document.getElementById("login-error");
    error.textContent = "";
    const answer = await fetch("/v1/sessions", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: document.getElementById("username").value, password: document.getElementById("password").value }),
    });
    const body = await answer.json();
    if (answer.status !== 201) { error.textContent = body.detail || "the login was refused"; return; }
    if (!["dispatcher", "administrator", "planner"].includes(body.role)) { error.textContent = "the map is for dispatchers"; return; }
    sessionStorage.setItem(sessionKey, body.token);
    sessionStorage.setItem(roleKey, body.role);
    role = body.role;
    await enter(body.token);
  });

  document.getElementById("logout").addEventListener("click", async () => {
    sessionStorage.removeItem(sessionKey);
    await fetch("/v1/sessions/current", { method: "DELETE", headers: { Authorization: "Bearer " + token } }).catch(() => {});
    location.reload();
  });

  // The board on `saved`, this tab's token from before a reload, when the service still takes it.
  async function resume(saved) {
    const answer = await fetch("/v1/zones", { headers: { Authorization: "Bearer " + saved } }).catch(() => null);
    if (answer?.ok) {
      await enter(saved);
    } else {
      sessionStorage.removeItem(sessionKey);
      document.getElementById("login").hidden = false;
    }
  }

  async function enter(newToken) {
    token = newToken;
    document.getElementById("login").hidden = true;
    document.getElementById("board").hidden = false;
    await start();
  }

  async function start() {
    await drawZones();
    const roads = await api("/v1/roads");
    const roadLayer = L.geoJSON(roads, { interactive: false, style: () => ({ className: "road", color: "#78909c", weight: 1, opacity: 0.7 }) }).addTo(map);
    // The taxis drive on the road map, which may cover a corner of the zones: the first view shows it.
    map.fitBounds(roads.features.length ? roadLayer.getBounds() : zoneLayer.getBounds(), { animate: false });
    showZoneLegend();
    const desking = role === "dispatcher";
    document.getElementById("dispatch-desk").hidden = !desking;
    if (desking) desk = mytaxiPhoneDesk({ call, cityPoint: firstPoint(roads) });
    document.querySelectorAll("input[name=colour]").forEach((input) => input.addEventListener("change", () => {
      showZoneLegend();
      if (colouring() === "statistic") {
        readStatistics();
      } else {
        showStatisticsProblem("");
        readWaits();
      }
    }));
    // Another statistic is in the figures held already; other days are read.
    document.getElementById("statistic-name").addEventListener("change", scaleStatistic);
    for (const id of ["statistic-from", "statistic-to"]) document.getElementById(id).addEventListener("change", readStatistics);
    document.getElementById("road-speeds").addEventListener("change", drawRoadSpeeds);
    map.on("moveend", drawStreetNames);
    drawStreetNames();
    setInterval(drawRoadSpeeds, 60000);
    await refresh();
    if (role !== "planner") openPush();
    setInterval(refresh, 3000);
    setInterval(readWaits, 15000);
    if (desking) startBooking();
  }

  // A point of the road map (where the service can answer for the city), or null.
  function firstPoint(roads) {
    const geometry = roads.features[0]?.geometry;
    const point = geometry?.type === "MultiLineString" ? geometry.coordinates[0]?.[0] : geometry?.coordinates?.[0];
    return point ? { lon: point[0], lat: point[1] } : null;
  }

  // The phone-booking panel's suggestions, choices and submission.
  function startBooking() {
    document.querySelectorAll("input[name=when]").forEach((input) => input.addEventListener("change", showWhen));
    for (const [field, id] of Object.entries(bookingFields)) {
      let pending = null;
      document.getElementById(id).addEventListener("input", (event) => {
        const text = event.target.value;
        const picked = suggestions[field].get(text);
        choose(field, picked ? { lon: picked.lon, lat: picked.lat, label: text } : null);
        clearTimeout(pending);
        if (!picked && text.trim().length >= 2) pending = setTimeout(() => suggest(field, text), 150);
      });
    }
    document.getElementById("booking").addEventListener("submit", async (event) => {
      event.preventDefault();
      await book();
    });
    document.getElementById("use-as-pickup").addEventListener("click", () => {
      if (!clickedPlace) return;
      document.getElementById(bookingFields.pickup).value = clickedPlace.label;
      choose("pickup", clickedPlace);
    });
  }

  // Now or later: a booking ahead shows its pickup time field, and needs a destination.
  function showWhen() {
    const later = bookingAhead();
    document.getElementById("pickup-time-field").hidden = !later;
    document.getElementById("pickup-time").required = later;
    document.getElementById(bookingFields.destination).required = later;
    document.getElementById("destination-need").textContent = later ? "(required ahead)" : "(optional)";
    document.getElementById("booking-submit").textContent = later ? "Book ahead" : "Book the ride";
    if (later) desk.showPickupWindow();
  }

  function bookingAhead() {
    return document.querySelector("input[name=when]:checked")?.value === "later";
  }

  // Suggestions for `text` in `field`'s list, ranked near the map's centre.
  async function suggest(field, text) {
    const centre = map.getCenter();
    const answer = await api("/v1/places?limit=6&q=" + encodeURIComponent(text) + "&near=" + centre.lng.toFixed(6) + "," + centre.lat.toFixed(6));
    if (document.getElementById(bookingFields[field]).value !== text) return;
    suggestions[field] = new Map(answer.places.map((place) => [place.label, place]));
    document.getElementById(field + "-suggestions").replaceChildren(...answer.places.map((place) => {
      const option = document.createElement("option");
      option.value = place.label;
      return option;
    }));
  }

  // `place` ({lon, lat, label}) as `field`'s point, marked on the map; null: the text is sent as typed.
  function choose(field, place) {
    chosen[field] = place;
    if (chosenMarkers[field]) chosenMarkers[field].remove();
    chosenMarkers[field] = place
      ? L.circleMarker([place.lat, place.lon], { radius: 8, color: field === "pickup" ? "#1565c0" : "#6a1b9a", weight: 3, fillOpacity: 0.2 })
          .bindTooltip(textElement(field + ": " + place.label)).addTo(map)
      : null;
  }

  // The location a booking field sends: the point chosen, or the text as an address; null when empty.
  function bookingLocation(field) {
    const text = document.getElementById(bookingFields[field]).value.trim();
    if (!text) return null;
    return chosen[field] && chosen[field].label === text ? { lon: chosen[field].lon, lat: chosen[field].lat } : { address: text };
  }

  async function book() {
    const result = document.getElementById("booking-result");
    const seats = Number(document.getElementById("seats").value);
    const body = { callerPhone: document.getElementById("caller-phone").value.trim(), pickup: bookingLocation("pickup"), seats };
    const destination = bookingLocation("destination");
    if (destination) body.destination = destination;
    result.className = "refused";
    if (!Number.isInteger(seats) || seats < 1 || seats > 8) { result.textContent = "A party is 1 to 8 people."; return; }
    const ahead = bookingAhead();
    if (ahead) {
      const pickupAt = desk.pickupAt();
      if (pickupAt.error) { result.textContent = pickupAt.error; return; }
      if (!destination) { result.textContent = "A booking ahead needs a destination."; return; }
      body.pickupAt = pickupAt.iso;
    }
    result.className = "";
    result.textContent = "Booking...";
    document.getElementById("booking-choices").hidden = true;
    const answer = await call("POST", ahead ? "/v1/reservations" : "/v1/rides", body);
    const ride = answer.body || {};
    if (answer.status !== 201) {
      result.className = "refused";
      result.textContent = ride.detail || "the booking was refused (" + answer.status + ")";
      if (ride.candidates?.length) offer(ride.detail.includes("(destination)") ? "destination" : "pickup", ride.candidates);
      return;
    }
    if (ahead) {
      result.textContent = "Booking " + ride.reservationId + " for " + body.callerPhone + ": pickup " + desk.when(ride.pickupAt) + " at " +
        (ride.pickupAddress || chosen.pickup?.label || "the place given") + ", to " + (ride.destinationAddress || chosen.destination?.label || "the place given") +
        (seats > 1 ? ", " + seats + " seats" : "");
      clearBooking();
      desk.read();
      return;
    }
    const state = ride.status === "queued"
      ? "queued, position " + ride.queuePosition + (ride.expectedWaitS != null ? ", about " + Math.round(ride.expectedWaitS / 60) + " min" : "")
      : ride.status;
    result.textContent = "Ride " + ride.rideId + " for " + body.callerPhone + ": " + state + "; pickup " +
      (ride.pickupAddress || chosen.pickup?.label || "as given") + (ride.destinationAddress ? ", to " + ride.destinationAddress : "") +
      (seats > 1 ? ", " + seats + " seats" : "");
    clearBooking();
    readOpenRides();
  }

  function clearBooking() {
    for (const field of Object.keys(bookingFields)) {
      document.getElementById(bookingFields[field]).value = "";
      choose(field, null);
    }
    document.getElementById("seats").value = "1";
  }

  // The candidates of an address the service was not sure of, each a button that takes it for `field`.
  function offer(field, candidates) {
    document.getElementById("booking-choices").hidden = false;
    document.getElementById("booking-choices-title").textContent = "Which " + field + "?";
    document.getElementById("booking-candidates").replaceChildren(...candidates.map((candidate) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = candidate.label + (candidate.note ? " (" + candidate.note + ")" : "");
      button.addEventListener("click", () => {
        document.getElementById(bookingFields[field]).value = candidate.label;
        choose(field, { lon: candidate.lon, lat: candidate.lat, label: candidate.label });
        document.getElementById("booking-choices").hidden = true;
      });
      item.appendChild(button);
      return item;
    }));
  }

  // The open rides, oldest first, for the dispatcher to follow.
  async function readOpenRides() {
    if (!desk) return;
    const rides = await api("/v1/rides").catch(() => null);
    if (!rides) return;
    desk.openRides(rides);
    fill("open-rides", rides.map((ride) => ride.rideId + " " + ride.status + " " + ride.passengerId + " (zone " + ride.zoneId + ")" +
      (ride.taxiId ? ", taxi " + ride.taxiId : "")), "no open ride");
  }

  // The street names in view (GET /v1/roads/names) at street zoom, in place of those written before.
  async function drawStreetNames() {
    if (map.getZoom() < streetNameZoom) { streetNames.clearLayers(); return; }
    const bounds = map.getBounds();
    const box = [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()].map((value) => value.toFixed(5)).join(",");
    let labels;
    try {
      labels = await api("/v1/roads/names?bbox=" + box);
    } catch (error) {
      return;
    }
    streetNames.clearLayers();
    for (const label of labels.features) {
      const text = textElement(label.properties.name);
      text.style.transform = "translate(-50%, -50%) rotate(" + Number(label.properties.angle) + "deg)";
      const [lon, lat] = label.geometry.coordinates;
      L.marker([lat, lon], { interactive: false, keyboard: false, icon: L.divIcon({ className: "street-name", html: text, iconSize: null }) })
        .addTo(streetNames);
    }
  }

  // The roads whose learned time differs from the profile's (GET /v1/roads/speeds), when asked for.
  async function drawRoadSpeeds() {
    const shown = document.getElementById("road-speeds").checked;
    document.getElementById("road-speeds-legend").hidden = !shown;
    const note = document.getElementById("road-speeds-note");
    if (roadSpeedLayer) { roadSpeedLayer.remove(); roadSpeedLayer = null; }
    if (!shown) { note.textContent = ""; return; }
    const speeds = await api("/v1/roads/speeds");
    note.textContent = speeds.features.length === 0
      ? " (nothing learned yet: taxis must drive a few minutes)"
      : " (" + speeds.features.length + " road segments, " + speeds.speeds + " speeds)";
    roadSpeedLayer = L.geoJSON(speeds, {
      style: (feature) => ({
        className: "road-speed", weight: 4, opacity: 0.85,
        color: feature.properties.ratio < 1 ? (feature.properties.ratio < 0.6 ? "#b71c1c" : "#ef6c00") : "#2e7d32",
      }),
      onEachFeature: (feature, layer) => layer.bindTooltip(textElement(
        feature.properties.kmh + " km/h (profile " + feature.properties.profileKmh + " km/h)")),
    }).addTo(map);
  }

  // The zones in force (GET /v1/zones), in place of those drawn before.
  async function drawZones() {
    const zones = await api("/v1/zones");
    if (zoneLayer) zoneLayer.remove();
    zoneLayers.clear();
    expectedWaits.clear();
    tooltipTexts.clear();
    zoneLayer = L.geoJSON(zones, {
      pane: "zones",
      style: (feature) => ({ className: "zone zone-" + feature.id, weight: 1, color: "#455a64", fillOpacity: 0.35 }),
      onEachFeature: (feature, layer) => {
        zoneLayers.set(String(feature.id), layer);
        tooltipTexts.set(String(feature.id), String(feature.properties.name ?? ""));
        layer.bindTooltip(textElement(feature.properties.name));
        layer.on("click", (event) => showZone(feature, event.latlng));
      },
    }).addTo(map);
  }

  // The legend of the zones' colours: free taxis, the expected wait, or a statistic with its choices, as chosen.
  function showZoneLegend() {
    const chosen = colouring();
    document.getElementById("zone-legend-free").hidden = chosen !== "free";
    document.getElementById("zone-legend-wait").hidden = chosen !== "wait";
    document.getElementById("zone-legend-statistic").hidden = chosen !== "statistic";
    document.getElementById("statistic-choice").hidden = chosen !== "statistic";
    showZoneStatistic();
  }

  // What the zones are coloured by: "free" (taxis), "wait" or "statistic".
  function colouring() {
    return document.querySelector("input[name=colour]:checked")?.value || "free";
  }

  function colouringByWait() {
    return colouring() === "wait";
  }

  // Each zone's totals over the days chosen (GET /v1/stats/zones, by day), read when the colouring is chosen or the
  // days change, not with the fleet. With no days chosen yet it asks for the 7 days to the service's today (by its
  // clock, which runs ahead of this browser's in a simulated city) and shows the days the service counted.
  async function readStatistics() {
    const read = ++statisticReads;
    const from = document.getElementById("statistic-from");
    const to = document.getElementById("statistic-to");
    try {
      let query;
      if (!from.value && !to.value) {
        const clock = await call("GET", "/v1/clock");
        const now = clock.ok && clock.body?.now ? Date.parse(clock.body.now) : Date.now();
        query = "from=" + encodeURIComponent(isoSecond(now - 6 * 86400000)) + "&to=" + encodeURIComponent(isoSecond(now));
      } else if (from.value && to.value) {
        // A date is the city's midnight: the stretch ends the day after `to`, so that `to` counts whole.
        query = "from=" + from.value + "&to=" + dayAfter(to.value, 1);
      } else {
        useStatistics(null, "choose the first and the last day.");
        return;
      }
      const answer = await call("GET", "/v1/stats/zones?" + query + "&bucket=day");
      if (read !== statisticReads) return;
      if (!answer.ok) {
        useStatistics(null, answer.body?.detail || "the service answered " + answer.status + ".");
        return;
      }
      useStatistics(answer.body, "");
      if (!from.value && !to.value) {
        from.value = statisticDays.from;
        to.value = statisticDays.to;
      }
    } catch (error) {
      if (read === statisticReads) useStatistics(null, error.message);
    }
  }

  // The totals of `answer` (null: none) in place of those held, and `problem` (or nothing) in the status line.
  function useStatistics(answer, problem) {
    zoneTotals.clear();
    statisticDays = null;
    if (answer) {
      for (const zone of answer.zones) zoneTotals.set(String(zone.zoneId), zone.total);
      // The service widens the stretch to whole days and ends it at the midnight after the last one.
      statisticDays = { from: answer.from.slice(0, 10), to: dayAfter(answer.to.slice(0, 10), -1) };
    }
    showStatisticsProblem(problem ? "Cannot read the statistics: " + problem : "");
    scaleStatistic();
  }

  // The chosen statistic's value in every zone that has one, the steps of its scale, the legend and the zones' colours.
  function scaleStatistic() {
    const statistic = chosenStatistic();
    statisticValues = new Map();
    for (const [id, total] of zoneTotals) {
      const value = statistic.of(total);
      if (typeof value === "number" && Number.isFinite(value)) statisticValues.set(id, value);
    }
    statisticSteps = quartileSteps([...statisticValues.values()]);
    drawStatisticLegend(statistic);
    showZoneStatistic();
    colourZones();
  }

  function chosenStatistic() {
    return statistics[document.getElementById("statistic-name").value] || statistics.requests;
  }

  // Up to 4 steps of `values` by their quartiles, each the {lowest, highest} of its values, lowest first. Quartiles and
  // not equal steps, since a few busy zones would leave every other one in the lightest; equal quartiles make one step,
  // so that zones of one value share a colour.
  function quartileSteps(values) {
    const sorted = [...values].sort((a, b) => a - b);
    if (!sorted.length) return [];
    const at = (share) => sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)];
    const uppers = [...new Set([at(0.25), at(0.5), at(0.75), sorted[sorted.length - 1]])];
    return uppers.map((highest, index) => ({ lowest: sorted.find((value) => index === 0 || value > uppers[index - 1]), highest }));
  }

  // The colour of a zone's value (undefined: no figure): its step's, the highest step the darkest, so that fewer
  // steps leave out the lightest colours rather than the darkest.
  function statisticColour(value) {
    if (value === undefined) return noFigure;
    const palette = palettes[chosenStatistic().palette];
    const index = statisticSteps.findIndex((step) => value <= step.highest);
    return palette[palette.length - statisticSteps.length + index];
  }

  // A value as people read it: a count as it is, a time in minutes and seconds ("1:45"), an average to two decimals.
  function statisticText(statistic, value) {
    if (statistic.kind === "duration") {
      const seconds = Math.round(value);
      return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
    }
    return statistic.kind === "average" ? String(Math.round(value * 100) / 100) : String(value);
  }

  // "requests: 3", "median wait: 1:45 min", or "... no figure", for zone `id`.
  function zoneStatisticLine(id) {
    const statistic = chosenStatistic();
    const value = statisticValues.get(id);
    return statistic.label + ": " +
      (value === undefined ? "no figure" : statisticText(statistic, value) + (statistic.kind === "duration" ? " min" : ""));
  }

  // The legend of the statistic's colours: what it is over which days, each step's values, and the zones with no figure.
  // Only text nodes and empty swatches: the legend's spans are the swatches.
  function drawStatisticLegend(statistic) {
    const parts = [document.createTextNode("Zones, " + statistic.label + (statistic.kind === "duration" ? " (min:s)" : "") +
      (statisticDays ? ", " + statisticDays.from + " to " + statisticDays.to : "") + ":")];
    for (const step of statisticSteps) {
      const low = statisticText(statistic, step.lowest);
      const high = statisticText(statistic, step.highest);
      parts.push(swatch(statisticColour(step.highest)), document.createTextNode(low === high ? low : low + "–" + high));
    }
    parts.push(swatch(noFigure), document.createTextNode("no figure"));
    document.getElementById("zone-legend-statistic").replaceChildren(...parts);
  }

  // A legend's swatch of `colour` (set through the style object: the page's policy allows no style attribute).
  function swatch(colour) {
    const span = document.createElement("span");
    span.style.background = colour;
    return span;
  }

  // The statistic's value for the zone the panel shows, while the zones are coloured by one.
  function showZoneStatistic() {
    const line = document.getElementById("zone-statistic");
    line.hidden = colouring() !== "statistic" || panelZone === null;
    if (!line.hidden) {
      line.textContent = zoneStatisticLine(panelZone) + (statisticDays ? " (" + statisticDays.from + " to " + statisticDays.to + ")" : "");
    }
  }

  // The zone's tooltip: its name, with the statistic's value when the zones are coloured by one.
  function nameZone(id, layer) {
    const name = String(layer.feature.properties.name ?? "");
    const text = colouring() === "statistic" ? name + " — " + zoneStatisticLine(id) : name;
    if (tooltipTexts.get(id) === text) return;
    tooltipTexts.set(id, text);
    layer.setTooltipContent(textElement(text));
  }

  // What went wrong reading the statistics, in the status line beside the fleet's state ("": nothing).
  function showStatisticsProblem(text) {
    document.getElementById("statistics-problem").textContent = text;
  }

  // The expected wait of every zone (GET /v1/waits at a point inside it), when the zones are coloured by it.
  async function readWaits() {
    if (colouringByWait()) {
      await Promise.all([...zoneLayers].map(async ([id, layer]) => {
        const inside = layer.feature.properties.inside;
        if (!inside) return;
        try {
          const wait = await api("/v1/waits?lon=" + inside.lon + "&lat=" + inside.lat);
          expectedWaits.set(id, wait.expectedWaitS);
        } catch (error) {
          expectedWaits.delete(id);
        }
      }));
    }
    colourZones();
  }

  function openPush() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + "/v1/push?token=" + encodeURIComponent(token));
    socket.onmessage = (message) => {
      const notice = JSON.parse(message.data);
      if (notice.kind === "state") {
        if (notice.fleet) showFleet(notice.fleet);
      } else if (notice.kind === "zones_changed") {
        // The zone the panel shows may have changed or gone: it is closed until the next click.
        document.getElementById("zone-panel").hidden = true;
        panelZone = null;
        drawZones().then(readWaits);
      } else {
        // A booking made, cancelled or given its taxi: the phone desk reads the bookings again.
        if (notice.kind.startsWith("reservation_")) desk?.read();
        if (!refreshQueued) {
          refreshQueued = true;
          setTimeout(() => { refreshQueued = false; refresh(); }, 500);
        }
      }
    };
    socket.onclose = () => setTimeout(openPush, 3000);
  }

  async function refresh() {
    try {
      showFleet(await api("/v1/fleet"));
      readOpenRides();
    } catch (error) {
      document.getElementById("fleet-status").textContent = "Cannot read the fleet: " + error.message;
    }
  }

  function showFleet(taxis) {
    fleet = taxis;
    const seen = new Set();
    for (const taxi of taxis) {
      const id = taxi.position.taxiId;
      seen.add(id);
      const colour = stateColours[taxi.state] || "#757575";
      const where = [taxi.position.lat, taxi.position.lon];
      let marker = taxiMarkers.get(id);
      if (!marker) {
        marker = L.circleMarker(where, { radius: 5, weight: 1, color: "#222", fillOpacity: 0.9, className: "taxi" }).addTo(map);
        marker.bindTooltip(textElement(id));
        taxiMarkers.set(id, marker);
      }
      marker.setLatLng(where);
      marker.setStyle({ fillColor: colour });
      marker.getElement()?.setAttribute("data-state", taxi.state);
      marker.getElement()?.setAttribute("data-taxi", id);
    }
    for (const [id, marker] of taxiMarkers) if (!seen.has(id)) { marker.remove(); taxiMarkers.delete(id); }
    const free = taxis.filter((taxi) => taxi.state === "available").length;
    document.getElementById("fleet-status").textContent =
      taxis.length + " taxis, " + free + " free; updated " + new Date().toLocaleTimeString();
    colourZones();
  }

  // Free taxis: none red, one or two yellow, more green. Expected wait: under
  // 5 minutes green, under 10 yellow, longer red, unknown grey. A statistic:
  // its scale's colour, grey where there is no figure, filled more densely,
  // since the scale's light steps would not show at the others' density.
  function colourZones() {
    const chosen = colouring();
    const free = new Map();
    for (const taxi of fleet) {
      if (taxi.state === "available" && taxi.position.zoneId) free.set(taxi.position.zoneId, (free.get(taxi.position.zoneId) || 0) + 1);
    }
    for (const [id, layer] of zoneLayers) {
      let colour;
      if (chosen === "statistic") {
        const value = statisticValues.get(id);
        colour = statisticColour(value);
        layer.getElement()?.setAttribute("data-stat", value === undefined ? "" : String(value));
      } else if (chosen === "wait") {
        const wait = expectedWaits.get(id);
        colour = wait === undefined || wait === null ? "#bdbdbd" : wait < 300 ? "#a5d6a7" : wait < 600 ? "#fff59d" : "#ef9a9a";
        layer.getElement()?.setAttribute("data-wait", wait === undefined || wait === null ? "" : String(Math.round(wait)));
      } else {
        const count = free.get(id) || 0;
        colour = count === 0 ? "#ef9a9a" : count < 3 ? "#fff59d" : "#a5d6a7";
        layer.getElement()?.setAttribute("data-free", String(count));
      }
      layer.setStyle({ fillColor: colour, fillOpacity: chosen === "statistic" ? 0.6 : 0.35 });
      nameZone(id, layer);
    }
  }

  async function showZone(feature, latlng) {
    document.getElementById("zone-panel").hidden = false;
    document.getElementById("zone-title").textContent = "Zone " + feature.id + ": " + feature.properties.name;
    panelZone = String(feature.id);
    showZoneStatistic();
    nameClickedPlace(latlng);
    const queue = await api("/v1/zones/" + encodeURIComponent(feature.id) + "/queue");
    fill("zone-taxis", queue.taxis.map((taxi) => taxi.taxiId + " (free since " + new Date(taxi.availableSince).toLocaleTimeString() + ")"), "no free taxi");
    fill("zone-passengers", queue.passengers.map((passenger) => passenger.rideId + " " + passenger.passengerId + (passenger.confirmed ? "" : " (not confirmed)")), "nobody waiting");
    const answer = await fetch("/v1/zones/nearest-free?lon=" + latlng.lng + "&lat=" + latlng.lat + "&limit=5",
      { headers: { Authorization: "Bearer " + token } });
    const nearest = await answer.json();
    if (answer.status === 422) {
      fill("nearest", [], "the point clicked is off the road map the taxis drive on: click nearer a road");
      return;
    }
    if (!answer.ok) throw new Error("/v1/zones/nearest-free: " + answer.status);
    fill("nearest", nearest.map((zone) => zone.zoneId + " " + (zone.name || "") + ": " + zone.taxiId + ", " + Math.round(zone.etaS / 60) + " min"), "no free taxi anywhere");
  }

  // The address of the point clicked (or its street and cross street), offered as the pickup.
  async function nameClickedPlace(latlng) {
    const text = document.getElementById("clicked-place");
    const use = document.getElementById("use-as-pickup");
    text.textContent = "";
    use.hidden = true;
    const answer = await fetch("/v1/places/reverse?lon=" + latlng.lng.toFixed(7) + "&lat=" + latlng.lat.toFixed(7),
      { headers: { Authorization: "Bearer " + token } });
    if (!answer.ok) return;
    const place = await answer.json();
    clickedPlace = { lon: latlng.lng, lat: latlng.lat, label: place.label };
    text.textContent = "Clicked: " + place.label;
    use.hidden = false;
  }

  const saved = sessionStorage.getItem(sessionKey);
  if (saved) resume(saved); else document.getElementById("login").hidden = false;

  // An element holding `text` as text: Leaflet writes a string tooltip as HTML.
  function textElement(text) {
    const element = document.createElement("span");
    element.textContent = String(text ?? "");
    return element;
  }

  // The instant `ms` in ISO 8601 to the second, as the service reads a time.
  function isoSecond(ms) {
    return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
  }

  // The day `days` after `day` (YYYY-MM-DD), by the calendar alone (setUTCFullYear: years before 100 stay so).
  function dayAfter(day, days) {
    const [year, month, date] = day.split("-").map(Number);
    const moment = new Date(0);
    moment.setUTCFullYear(year, month - 1, date + days);
    return moment.toISOString().slice(0, 10);
  }

  // The list `id` with one item per line; an empty list shows `empty` as a note, not as item 1.
  function fill(id, lines, empty) {
    const list = document.getElementById(id);
    list.replaceChildren(...(lines.length ? lines : [empty]).map((line) => {
      const item = document.createElement("li");
      item.textContent = line;
      if (!lines.length) item.className = "empty";
      return item;
    }));
  }
})();
