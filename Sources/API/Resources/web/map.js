// The dispatcher's live map: logs in, draws the zones (coloured by their
// free taxis, or by the expected wait there), the main roads and the taxis, keeps them up to
// date (the push socket's decisions and a fleet read every few seconds for
// positions), draws the zones again when a new zone set is put in force
// (the push socket's `zones_changed`), and shows a zone's queues and the
// nearest zones with free taxis where the dispatcher clicks. On demand it
// colours the roads whose speeds the fleet taught the router (red slower
// than the speed profile, green faster), read again every minute.
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
  // Each booking field's suggestions by label, and the point chosen for it (a suggestion, a candidate, a click).
  const bookingFields = { pickup: "pickup-address", destination: "destination-address" };
  const suggestions = { pickup: new Map(), destination: new Map() };
  const chosen = { pickup: null, destination: null };
  const chosenMarkers = { pickup: null, destination: null };
  let clickedPlace = null;
  let desk = null;

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
    desk = mytaxiPhoneDesk({ call, cityPoint: firstPoint(roads) });
    document.querySelectorAll("input[name=colour]").forEach((input) => input.addEventListener("change", () => {
      showZoneLegend();
      readWaits();
    }));
    document.getElementById("road-speeds").addEventListener("change", drawRoadSpeeds);
    map.on("moveend", drawStreetNames);
    drawStreetNames();
    setInterval(drawRoadSpeeds, 60000);
    await refresh();
    openPush();
    setInterval(refresh, 3000);
    setInterval(readWaits, 15000);
    startBooking();
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
    zoneLayer = L.geoJSON(zones, {
      pane: "zones",
      style: (feature) => ({ className: "zone zone-" + feature.id, weight: 1, color: "#455a64", fillOpacity: 0.35 }),
      onEachFeature: (feature, layer) => {
        zoneLayers.set(String(feature.id), layer);
        layer.bindTooltip(textElement(feature.properties.name));
        layer.on("click", (event) => showZone(feature, event.latlng));
      },
    }).addTo(map);
  }

  // The legend of the zones' colours: free taxis, or the expected wait, as chosen.
  function showZoneLegend() {
    const byWait = colouringByWait();
    document.getElementById("zone-legend-free").hidden = byWait;
    document.getElementById("zone-legend-wait").hidden = !byWait;
  }

  function colouringByWait() {
    return document.querySelector("input[name=colour]:checked")?.value === "wait";
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
        drawZones().then(readWaits);
      } else {
        // A booking made, cancelled or given its taxi: the phone desk reads the bookings again.
        if (notice.kind.startsWith("reservation_")) desk.read();
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
      document.getElementById("status").textContent = "Cannot read the fleet: " + error.message;
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
    document.getElementById("status").textContent =
      taxis.length + " taxis, " + free + " free; updated " + new Date().toLocaleTimeString();
    colourZones();
  }

  // Free taxis: none red, one or two yellow, more green. Expected wait: under
  // 5 minutes green, under 10 yellow, longer red, unknown grey.
  function colourZones() {
    const byWait = colouringByWait();
    const free = new Map();
    for (const taxi of fleet) {
      if (taxi.state === "available" && taxi.position.zoneId) free.set(taxi.position.zoneId, (free.get(taxi.position.zoneId) || 0) + 1);
    }
    for (const [id, layer] of zoneLayers) {
      let colour;
      if (byWait) {
        const wait = expectedWaits.get(id);
        colour = wait === undefined || wait === null ? "#bdbdbd" : wait < 300 ? "#a5d6a7" : wait < 600 ? "#fff59d" : "#ef9a9a";
        layer.getElement()?.setAttribute("data-wait", wait === undefined || wait === null ? "" : String(Math.round(wait)));
      } else {
        const count = free.get(id) || 0;
        colour = count === 0 ? "#ef9a9a" : count < 3 ? "#fff59d" : "#a5d6a7";
        layer.getElement()?.setAttribute("data-free", String(count));
      }
      layer.setStyle({ fillColor: colour });
    }
  }

  async function showZone(feature, latlng) {
    document.getElementById("zone-panel").hidden = false;
    document.getElementById("zone-title").textContent = "Zone " + feature.id + ": " + feature.properties.name;
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
