// The live map's phone desk (map.html, started by map.js): what a dispatcher
// taking phone calls needs beside the booking panel.
//
// - The city's time zone (the `timeZone` of GET /v1/reachability, where the
//   service gives times in the city's local time): a booking ahead's pickup
//   time is typed and every time shown in it, with the 2-48 h rule.
// - "Today's phone rides": the callers' open rides (those of GET /v1/rides
//   whose passenger is `phone:` and a number), with their state and a
//   cancel button; those ended today (GET /v1/rides/by-phone?days=1, asked
//   once at start: when the service has no such call, the list says so and
//   it is not asked again); the callers' bookings ahead (GET
//   /v1/reservations), each with a cancel button.
// - A lookup: a ride id (GET /v1/rides/{rideId}, open or ended), or a
//   caller's number (that caller's rides and bookings).
//
// map.js hands it a function making the service's calls with its login, so
// that the token stays in map.js's closure; the start function is the only
// global, and it cannot be replaced. Everything from the service is written
// as text (textContent), never as HTML.
"use strict";
(() => {
  const earliestMs = 2 * 3600 * 1000;
  const latestMs = 48 * 3600 * 1000;
  const fiveMinutes = 300000;
  const stateWords = {
    queued: "waiting for a taxi", offered: "a taxi is asked", assigned: "taxi on its way",
    arrived: "taxi at the pickup", aboard: "aboard",
  };
  const outcomeWords = {
    completed: "completed", client_missing: "caller missing", cancelled: "cancelled", not_confirmed: "not confirmed",
    reservation_cancelled: "booking cancelled", outside_zones: "outside the zones",
  };
  const bookingWords = { booked: "booked", awaitingTaxi: "looking for a taxi", allocated: "taxi allocated" };

  function start({ call, cityPoint }) {
    const byId = (id) => document.getElementById(id);
    let timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    let cityZoneKnown = false;
    let partsFormat = null;
    let showFormat = null;
    // null until the ended rides were asked for; then whether the service has the call.
    let endedAvailable = null;
    let openPhoneRides = [];
    const shown = new Map();

    // The city's time zone, read from the service once; until then (or when it cannot tell) the browser's.
    async function readTimeZone() {
      useTimeZone(timeZone);
      if (!cityPoint) return;
      const point = cityPoint.lon + "," + cityPoint.lat;
      const answer = await call("GET", "/v1/reachability?from=" + point + "&to=" + point +
        "&arriveBy=" + encodeURIComponent(new Date(Date.now() + 3600000).toISOString()));
      if (answer.ok && answer.body.timeZone) {
        cityZoneKnown = true;
        useTimeZone(answer.body.timeZone);
      }
    }

    function useTimeZone(zone) {
      timeZone = zone;
      partsFormat = new Intl.DateTimeFormat("en-US", {
        timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit",
      });
      showFormat = new Intl.DateTimeFormat("en-GB", {
        timeZone, weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23",
      });
      byId("pickup-time-zone").textContent = zoneName();
      if (!byId("pickup-time-field").hidden) showPickupWindow();
    }

    // "New York time" of America/New_York; "this browser's time" until the city's is known.
    function zoneName() {
      return cityZoneKnown ? timeZone.split("/").pop().replaceAll("_", " ") + " time" : "this browser's time";
    }

    // The calendar fields of the instant `ms` in the city's time zone.
    function zoneParts(ms) {
      const parts = {};
      for (const part of partsFormat.formatToParts(new Date(ms))) parts[part.type] = part.value;
      return parts;
    }

    // The city's offset from UTC at the instant `ms`, in milliseconds.
    function offsetAt(ms) {
      const p = zoneParts(ms);
      return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - Math.floor(ms / 1000) * 1000;
    }

    // The instant `ms` as a datetime-local value, the city's wall-clock time.
    function inputValue(ms) {
      const p = zoneParts(ms);
      return p.year + "-" + p.month + "-" + p.day + "T" + p.hour + ":" + p.minute;
    }

    // The instant of a datetime-local value read as the city's wall-clock time; NaN when it is none.
    function instantOf(value) {
      const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
      if (!match) return NaN;
      const wall = Date.UTC(+match[1], +match[2] - 1, +match[3], +match[4], +match[5]);
      const first = wall - offsetAt(wall);
      return wall - offsetAt(first);
    }

    // An ISO time of the service as the city's time, for people: "Sat 5 Dec, 14:05".
    function when(iso) {
      const ms = typeof iso === "number" ? iso : Date.parse(iso);
      return Number.isNaN(ms) ? String(iso ?? "") : showFormat.format(new Date(ms));
    }

    function isToday(iso) {
      const day = (ms) => { const p = zoneParts(ms); return p.year + p.month + p.day; };
      return day(Date.parse(iso)) === day(Date.now());
    }

    // The pickup time field, shown for a booking ahead: the window of the 2-48 h rule and a time in it.
    function showPickupWindow() {
      const now = Date.now();
      const earliest = Math.ceil((now + earliestMs) / fiveMinutes) * fiveMinutes;
      const latest = Math.floor((now + latestMs) / fiveMinutes) * fiveMinutes;
      const input = byId("pickup-time");
      input.min = inputValue(earliest);
      input.max = inputValue(latest);
      if (!input.value) input.value = inputValue(earliest + 3600000);
      byId("pickup-time-rule").textContent = "Book 2 to 48 hours ahead: between " + when(earliest) + " and " + when(latest) +
        " (" + zoneName() + ").";
    }

    // The pickup time chosen, as {iso}, or {error} saying what is wrong with it.
    function pickupAt() {
      const ms = instantOf(byId("pickup-time").value);
      if (Number.isNaN(ms)) return { error: "Choose the pickup time." };
      const now = Date.now();
      if (ms < now + earliestMs || ms > now + latestMs) {
        return { error: "A taxi can be booked 2 to 48 hours ahead: choose a time between " + when(now + earliestMs) + " and " +
          when(now + latestMs) + " (" + zoneName() + ")." };
      }
      return { iso: new Date(ms).toISOString() };
    }

    function caller(passengerId) {
      return String(passengerId ?? "").replace(/^phone:/, "");
    }

    function isPhone(entry) {
      return String(entry.passengerId ?? "").startsWith("phone:");
    }

    function describeOpen(ride) {
      return ride.rideId + " for " + caller(ride.passengerId) + ": " + ride.status + " (" + (stateWords[ride.status] || "open") + ")" +
        (ride.taxiId ? ", taxi " + ride.taxiId : "") + (ride.status === "queued" && ride.queuePosition ? ", position " + ride.queuePosition : "") +
        (ride.etaS != null && ride.status === "assigned" ? ", about " + Math.round(ride.etaS / 60) + " min" : "") +
        (ride.seats > 1 ? ", " + ride.seats + " seats" : "");
    }

    function describeEnded(entry) {
      return (entry.rideId || entry.reservationId || "a ride") + " for " + caller(entry.passengerId) + ": ended, " +
        (outcomeWords[entry.outcome] || entry.outcome) + " at " + when(entry.endedAt) + (entry.taxiId ? ", taxi " + entry.taxiId : "") +
        (entry.pickupAt ? "; booked for " + when(entry.pickupAt) : "");
    }

    function describeBooking(booking) {
      return booking.reservationId + " for " + caller(booking.passengerId) + ": pickup " + when(booking.pickupAt) + ", " +
        (bookingWords[booking.status] || booking.status) + (booking.taxiId ? ", taxi " + booking.taxiId : "") +
        (booking.rideId ? ", ride " + booking.rideId : "") + (booking.seats > 1 ? ", " + booking.seats + " seats" : "");
    }

    // The list `id` with an item per entry (its text, and a button when `action` gives one); an empty
    // list shows `empty` as a note. Written again only when what it shows changed, the focus kept on
    // the same entry's button, so that a list read every few seconds stays usable from the keyboard.
    function show(id, entries, text, empty, action) {
      const lines = entries.map((entry) => ({ text: text(entry), action: action ? action(entry) : null }));
      const key = JSON.stringify([lines.map((line) => [line.text, line.action?.label]), empty]);
      if (shown.get(id) === key) return;
      shown.set(id, key);
      const list = byId(id);
      const focused = list.contains(document.activeElement) ? document.activeElement.getAttribute("aria-label") : null;
      if (!lines.length) {
        const item = document.createElement("li");
        item.className = "empty";
        item.textContent = empty;
        list.replaceChildren(item);
        return;
      }
      list.replaceChildren(...lines.map((line) => {
        const item = document.createElement("li");
        const words = document.createElement("span");
        words.textContent = line.text;
        item.appendChild(words);
        if (line.action) {
          const button = document.createElement("button");
          button.type = "button";
          button.textContent = line.action.text;
          button.setAttribute("aria-label", line.action.label);
          button.addEventListener("click", line.action.run);
          item.append(" ", button);
        }
        return item;
      }));
      if (focused) [...list.querySelectorAll("button")].find((button) => button.getAttribute("aria-label") === focused)?.focus();
    }

    function say(text, refused) {
      const result = byId("phone-desk-result");
      result.className = refused ? "refused" : "";
      result.textContent = text;
    }

    // The callers' open rides, from the map's read of every open ride; a ride gone from them has ended.
    function openRides(rides) {
      const phoneRides = rides.filter(isPhone);
      const gone = openPhoneRides.some((ride) => !phoneRides.some((still) => still.rideId === ride.rideId));
      openPhoneRides = phoneRides;
      show("phone-open", phoneRides, describeOpen, "no open phone ride", (ride) => ride.status === "aboard" ? null : {
        text: "Cancel", label: "Cancel ride " + ride.rideId, run: () => cancel("/v1/rides/", ride.rideId, "Ride"),
      });
      if (gone) readEnded();
    }

    // The callers' rides ended today; the service is asked once whether it has the call.
    async function readEnded() {
      if (endedAvailable === false) return;
      const answer = await call("GET", "/v1/rides/by-phone?days=1");
      if (!answer.ok) {
        if (endedAvailable === null) {
          endedAvailable = false;
          show("phone-ended", [], String, "ended rides unavailable");
        }
        return;
      }
      endedAvailable = true;
      show("phone-ended", answer.body.filter((entry) => isToday(entry.endedAt)), describeEnded, "no phone ride ended today");
    }

    // The callers' open bookings ahead, soonest first, each with its cancel button.
    async function readBookings() {
      const answer = await call("GET", "/v1/reservations");
      if (!answer.ok) return;
      show("phone-bookings", answer.body.filter(isPhone), describeBooking, "no booking ahead", (booking) => ({
        text: "Cancel", label: "Cancel booking " + booking.reservationId,
        run: () => cancel("/v1/reservations/", booking.reservationId, "Booking"),
      }));
    }

    // Cancels the ride or booking `id`; a refusal (a booking within its last hour) in the service's words.
    async function cancel(path, id, kind) {
      const answer = await call("DELETE", path + encodeURIComponent(id));
      if (answer.ok) {
        say(kind + " " + id + " cancelled.", false);
      } else {
        say(kind + " " + id + " not cancelled: " + (answer.body?.detail || "the service answered " + answer.status), true);
      }
      read();
    }

    function read() {
      readBookings();
      readEnded();
    }

    // A ride by its id, or a caller's rides and bookings by the number.
    async function lookUp(query) {
      const result = byId("lookup-result");
      const list = byId("lookup-list");
      result.className = "";
      list.replaceChildren();
      shown.delete("lookup-list");
      if (/^R\d+$/i.test(query)) {
        const rideId = query.toUpperCase();
        result.textContent = "Looking up " + rideId + "...";
        const answer = await call("GET", "/v1/rides/" + encodeURIComponent(rideId));
        if (!answer.ok) {
          result.className = "refused";
          result.textContent = answer.status === 404 ? "No ride " + rideId + ", open or ended." : answer.body?.detail || "the service answered " + answer.status;
          return;
        }
        result.textContent = rideDetails(answer.body);
        return;
      }
      if (!/^[0-9 +()-]{3,32}$/.test(query)) {
        result.className = "refused";
        result.textContent = "Type a ride id (R and a number) or a phone number.";
        return;
      }
      result.textContent = "Looking up " + query + "...";
      const digits = (text) => text.replace(/[^0-9+]/g, "");
      const open = openPhoneRides.filter((ride) => digits(caller(ride.passengerId)) === digits(query));
      const [ended, bookings] = await Promise.all([
        endedAvailable ? call("GET", "/v1/rides/by-phone?days=1&callerPhone=" + encodeURIComponent(query)) : null,
        call("GET", "/v1/reservations?callerPhone=" + encodeURIComponent(query)),
      ]);
      const lines = [...open.map(describeOpen), ...(ended?.ok ? ended.body.map(describeEnded) : []),
        ...(bookings.ok ? bookings.body.map(describeBooking) : [])];
      result.textContent = query + ": " + open.length + " open, " +
        (ended?.ok ? ended.body.length + " ended today" : "ended rides unavailable") + ", " +
        (bookings.ok ? bookings.body.length + " booked ahead" : "bookings unavailable") + ".";
      show("lookup-list", lines, String, "no ride or booking for " + query);
    }

    // An open or ended ride, for the caller who rings back.
    function rideDetails(ride) {
      const parts = [ride.rideId + (ride.passengerId ? " for " + caller(ride.passengerId) : "")];
      if (ride.status === "ended") {
        parts.push("ended, " + (outcomeWords[ride.outcome] || ride.outcome) + " at " + when(ride.endedAt));
      } else {
        parts.push(ride.status + " (" + (stateWords[ride.status] || "open") + ")");
      }
      if (ride.taxiId) parts.push("taxi " + ride.taxiId);
      if (ride.etaS != null && ride.status !== "ended") parts.push("about " + Math.round(ride.etaS / 60) + " min away");
      if (ride.pickupAt) parts.push("booked for " + when(ride.pickupAt));
      if (ride.arrivedAt) parts.push("at the pickup since " + when(ride.arrivedAt));
      if (ride.confirmBy && ride.status === "queued") parts.push("to confirm by " + when(ride.confirmBy));
      if (ride.seats > 1) parts.push(ride.seats + " seats");
      return parts.join("; ") + ".";
    }

    byId("lookup").addEventListener("submit", (event) => {
      event.preventDefault();
      lookUp(byId("lookup-query").value.trim());
    });
    readTimeZone().finally(read);
    setInterval(readBookings, 30000);
    setInterval(() => { if (endedAvailable) readEnded(); }, 60000);
    return { showPickupWindow, pickupAt, when, openRides, read };
  }

  Object.defineProperty(window, "mytaxiPhoneDesk", { value: Object.freeze(start), writable: false, configurable: false });
})();
