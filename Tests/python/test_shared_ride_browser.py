"""A shared ride end to end in the apps: the passenger's app (/app) on two
phones (390x844) and the driver's tablet app (/driver, 1280x800), each in a
headless Chromium of its own (three browser contexts) driven by Selenium,
against one `mytaxi serve` on the demo city (Manhattan's zones, Midtown's
roads with their places and addresses), on the real-time clock (a shared
ride's latest pickup is 10 service minutes after the request: the test
stays well within it).

One taxi is on duty, its terminal on the line protocol at a taxi stand in
Midtown South; its driver logs in on the tablet and goes available. Ada,
on 34th Street, gives a destination (before it "Share the ride" is disabled
and the hint says why), ticks it and asks: her app shows the shared ride's
terms; the driver accepts the offer, and the tablet lists the itinerary:
Ada's pickup and drop-off. Bob, a block north on 35th Street and going the
same way but a few hundred metres short of Ada's destination, asks for a
shared ride in the other phone: he joins the taxi at once, and his app
shows the taxi, its ETA and his terms; the tablet lists four stops. The
driver boards Bob, then Ada, and completes Bob's ride, then Ada's, each by
the buttons of that rider's stop (`?rideId=`): each passenger's app shows
the boarding and the ride's end, and the tablet the stops left, then no
itinerary and the taxi available in its zone's queue.

What is checked is what the users see (the pages' texts), the service's
own account (the API), no error in any browser's console and an accessible
name on every control. Set-up in browser_apps.py: MYTAXI_BIN,
MYTAXI_WEB_ROOT, and MYTAXI_SCREENSHOTS, a folder to save
app-shared-request.png, app-shared-ride.png and driver-shared-ride.png in.
"""
import re

import pytest

from browser_apps import (PHONE, TABLET, By, DriverApp, LineTerminal, PassengerApp, ServiceClock, browser_tools, call,
                          chromium, log_in, mytaxi_serve, wait_until)

CLOCK_RATE = 1
TAXI, DEVICE = "TX900001", "terminal-900001"
# The taxi stand: in Midtown South, the zone of both pickups, a few hundred metres from them.
TAXI_STAND = (-73.9880, 40.7460)
# Ada: from 34th Street to Rockefeller Plaza; Bob: from a block north of her, to 43rd Street, on her way.
ADA_TRIP = (("2 West 34th", "2 West 34th Street, 10001"), ("1 Rockefeller", "1 Rockefeller Plaza, 10020"))
BOB_TRIP = (("9 West 35th", "9 West 35th Street, 10018"), ("7 West 43rd", "7 West 43rd Street, New York 10036"))
TERMS = re.compile(r"Shared ride: at most \+(\d+) min on your trip \(alone: (\d+) min\); picked up by (\d\d:\d\d) at the latest")
QUOTE = re.compile(r"Shared: a taxi in about .+(, already on a ride going your way)?; at most \+\d+ min on your trip \(alone: \d+ min\)\.")
# A place the driver's app names by its coordinates (no address near): the page shows them.
DRIVER_EXPECTED_FAILED_LOADS = [
    r"/v1/places/reverse\?\S* - Failed to load resource: the server responded with a status of 404",
]
# The itinerary the driver's app lists: (ride id, stop) of each item, in order.
STOPS_LISTED = "return [...document.querySelectorAll('#itinerary li')].map(li => [li.dataset.rideId, li.dataset.stop])"


@pytest.fixture(scope="module")
def city(browser_tools, tmp_path_factory):
    """`mytaxi serve` with the taxi's terminal reporting at the stand, its driver's and two passengers' accounts."""
    with mytaxi_serve(tmp_path_factory.mktemp("shared-ride"), {DEVICE: TAXI}, CLOCK_RATE) as served:
        served.create_account("driver", TAXI)
        for passenger in ["ada", "bob"]:
            served.create_account("passenger", passenger, email=f"{passenger}@example.com")
        terminal = LineTerminal(served.ports["line/tcp"], DEVICE, TAXI_STAND, ServiceClock(served.port))
        try:
            yield served
        finally:
            terminal.stop()


@pytest.fixture()
def apps(browser_tools, city):
    """Ada's and Bob's apps on phones, the driver's app on a tablet, each in its own Chromium: (PassengerApp, PassengerApp, DriverApp)."""
    with chromium(browser_tools, PHONE) as ada_phone, chromium(browser_tools, PHONE) as bob_phone, \
            chromium(browser_tools, TABLET) as tablet:
        for browser, path in [(ada_phone, "/app"), (bob_phone, "/app"), (tablet, "/driver")]:
            browser.get(city.origin + path)
        yield PassengerApp(ada_phone, city.origin), PassengerApp(bob_phone, city.origin), DriverApp(tablet, city.origin)


def ask_for_a_shared_ride(app, trip, joins, screenshot=None):
    """Chooses the trip's pickup and destination by suggestions, ticks "Share the ride", waits for what a shared
    ride would be told before asking (a taxi already on a ride going that way when `joins`), saves the form as
    `screenshot`, if named, and asks."""
    (pickup_typed, pickup), (destination_typed, destination) = trip
    app.choose_suggestion("pickup", pickup_typed, pickup)
    app.choose_suggestion("destination", destination_typed, destination)
    wait_until("sharing is offered once the destination is given", lambda: app.find("#share-ride").is_enabled())
    app.tap("#share-ride")
    assert app.find("#share-ride").is_selected()
    quote = app.wait_text("the shared ride's terms are told before asking", "share-quote", QUOTE.fullmatch)
    assert ("already on a ride going your way" in quote) == joins, quote
    if screenshot:
        app.screenshot(screenshot)
    app.tap("#request")
    app.wait_shown("the ride is followed", "ride")


def check_terms(app, port, passenger):
    """The shared ride's terms on the ride screen are the service's (`shared` of the passenger's ride): its ride."""
    ride = call(port, "GET", "/v1/rides/current", log_in(port, passenger))
    terms = ride["shared"]
    shown = app.wait_text(f"{passenger}'s app shows the shared ride's terms", "shared-terms", TERMS.fullmatch)
    added, alone, latest = TERMS.fullmatch(shown).groups()
    assert int(added) == max(1, round(terms["maximumAddedDelayS"] / 60)), (shown, terms)
    assert int(alone) == max(1, round(terms["directTripS"] / 60)), (shown, terms)
    hour, minute = app.js("const at = new Date(arguments[0]); return [at.getHours(), at.getMinutes()]", terms["latestPickupAt"])
    assert latest == f"{hour:02d}:{minute:02d}", (shown, terms)
    return ride


def stops_listed(driver):
    return [tuple(stop) for stop in driver.js(STOPS_LISTED)]


def step(driver, ride_id, stop, action):
    """Presses the button of `action` at the stop of ride `ride_id` in the driver's itinerary, once it is there and enabled."""
    selector = f'#itinerary li[data-ride-id="{ride_id}"][data-stop="{stop}"] button[data-step="{action}"]'
    button = wait_until(f"the itinerary offers {action} at {ride_id}'s {stop}",
                        lambda: next(iter(driver.driver.find_elements(By.CSS_SELECTOR, selector)), None),
                        lambda found: found is not None and found.is_enabled())
    button.click()


def buttons_at(driver, ride_id, stop):
    return driver.js("return [...document.querySelectorAll(arguments[0])].map(button => button.dataset.step)",
                     f'#itinerary li[data-ride-id="{ride_id}"][data-stop="{stop}"] button')


def test_two_passengers_share_a_taxi_boarded_and_dropped_by_the_itinerary_buttons(city, apps):
    ada, bob, driver = apps
    port = city.port
    admin = log_in(port, "admin")
    zone = call(port, "GET", f"/v1/zones/at?lon={TAXI_STAND[0]}&lat={TAXI_STAND[1]}", admin)["zoneId"]

    # The driver logs in and goes available at the stand, where the terminal reports from.
    driver.log_in(TAXI)
    driver.wait_text("the service has the taxi in the stand's zone", "queue-text", lambda text: text == f"In zone {zone}")
    driver.click("availability")
    driver.wait_text("the taxi is first in its zone's queue", "queue-text", lambda text: text == f"Place 1 in the queue of zone {zone}")
    assert not driver.shown("itinerary"), "no itinerary while the taxi is on no shared ride"

    # Ada: sharing needs a destination; with one she shares, and sees the terms.
    ada.log_in("ada")
    assert not ada.find("#share-ride").is_enabled()
    assert ada.text("share-ride-hint") == "Give a destination to share the ride."
    ada.assert_named_controls("request without a destination")
    ask_for_a_shared_ride(ada, ADA_TRIP, joins=False, screenshot="app-shared-request.png")
    ada_ride = check_terms(ada, port, "ada")
    assert ada.text("ride-places") == f"From {ADA_TRIP[0][1]} to {ADA_TRIP[1][1]}"

    # The driver accepts: the itinerary lists Ada's pickup, then her drop-off.
    driver.wait_shown("the offer is shown", "offer")
    driver.click("accept")
    driver.wait_shown("the itinerary is shown", "itinerary")
    wait_until("the itinerary lists Ada's pickup and drop-off", lambda: stops_listed(driver),
               lambda stops: stops == [(ada_ride["rideId"], "pickup"), (ada_ride["rideId"], "dropoff")])
    assert buttons_at(driver, ada_ride["rideId"], "pickup") == ["arrived", "aboard"]
    assert buttons_at(driver, ada_ride["rideId"], "dropoff") == []
    assert not driver.shown("ride-steps"), "on a shared ride the steps are the itinerary's"
    ada.wait_text("Ada's taxi is on its way", "ride-status", lambda text: text == f"Taxi {TAXI} is on its way")

    # Bob, a block on and going the same way, joins the taxi at once: its ETA and his terms.
    bob.log_in("bob")
    ask_for_a_shared_ride(bob, BOB_TRIP, joins=True)
    bob.wait_text("Bob's taxi is on its way", "ride-status", lambda text: text == f"Taxi {TAXI} is on its way")
    bob.wait_text("Bob's app shows the ETA", "ride-detail", lambda text: re.fullmatch(r"Arrives in about \d+ min\.|Arriving now\.", text))
    bob_ride = check_terms(bob, port, "bob")
    assert (bob_ride["status"], bob_ride["taxiId"]) == ("assigned", TAXI), bob_ride
    bob.assert_named_controls("shared ride")
    bob.screenshot("app-shared-ride.png")

    # The driver's itinerary: four stops, both riders' pickups before their drop-offs.
    stops = wait_until("the itinerary lists four stops", lambda: stops_listed(driver), lambda seen: len(seen) == 4)
    for rider in [ada_ride["rideId"], bob_ride["rideId"]]:
        assert stops.index((rider, "pickup")) < stops.index((rider, "dropoff")), stops
    assert driver.pushed_kinds().get("itinerary", 0) >= 2, driver.pushed_kinds()
    bob_pickup = driver.find(f'#itinerary li[data-ride-id="{bob_ride["rideId"]}"][data-stop="pickup"]').text
    assert "Pick up" in bob_pickup and "bob, 1 seat" in bob_pickup and BOB_TRIP[0][1] in bob_pickup, bob_pickup
    driver.assert_named_controls("shared ride")
    driver.screenshot("driver-shared-ride.png")

    # The driver boards Bob first, then Ada.
    step(driver, bob_ride["rideId"], "pickup", "aboard")
    bob.wait_text("Bob is on his way", "ride-status", lambda text: text == "On your way")
    wait_until("Bob's pickup is made", lambda: stops_listed(driver), lambda seen: (bob_ride["rideId"], "pickup") not in seen)
    assert buttons_at(driver, bob_ride["rideId"], "dropoff") == ["completed"]
    step(driver, ada_ride["rideId"], "pickup", "aboard")
    ada.wait_text("Ada is on her way", "ride-status", lambda text: text == "On your way")
    wait_until("two drop-offs are left", lambda: sorted(stops_listed(driver)),
               lambda seen: seen == sorted([(ada_ride["rideId"], "dropoff"), (bob_ride["rideId"], "dropoff")]))

    # Bob's ride is completed, then Ada's: each passenger sees the end.
    step(driver, bob_ride["rideId"], "dropoff", "completed")
    bob.wait_text("Bob sees the end", "summary-text",
                  lambda text: text == f"Your ride with taxi {TAXI} is complete. Thank you for riding with mytaxi.")
    wait_until("Ada's drop-off is the one stop left", lambda: stops_listed(driver),
               lambda seen: seen == [(ada_ride["rideId"], "dropoff")])
    assert ada.text("ride-status") == "On your way", "Bob's drop-off does not end Ada's ride"
    step(driver, ada_ride["rideId"], "dropoff", "completed")
    ada.wait_text("Ada sees the end", "summary-text",
                  lambda text: text == f"Your ride with taxi {TAXI} is complete. Thank you for riding with mytaxi.")
    for passenger in [ada, bob]:
        assert passenger.shown("request-form") and not passenger.shown("ride")
        assert not passenger.shown("shared-terms")

    # The shared ride is over: no itinerary, no ride, the taxi available in its zone's queue again.
    wait_until("the driver's itinerary is gone", lambda: not driver.shown("itinerary"))
    assert not driver.shown("ride")
    driver.wait_text("the taxi is available again", "state-text", lambda text: text == "Available")
    driver.wait_text("the taxi is back in the queue", "queue-text", lambda text: text == f"Place 1 in the queue of zone {zone}")
    for rider, passenger in [(ada_ride["rideId"], "ada"), (bob_ride["rideId"], "bob")]:
        ended = call(port, "GET", f"/v1/rides/{rider}", log_in(port, passenger))
        assert (ended["status"], ended["outcome"], ended["taxiId"]) == ("ended", "completed", TAXI), ended
    driver.wait_text("the driver sees both rides among today's rides", "rides-today",
                     lambda text: f"{ada_ride['rideId']}, completed" in text and f"{bob_ride['rideId']}, completed" in text)

    for passenger, name in [(ada, "Ada"), (bob, "Bob")]:
        passenger.assert_named_controls(f"{name}'s end of the ride")
        assert passenger.console_errors() == [], f"no error in {name}'s browser console"
    driver.assert_named_controls("driver's end of the shared ride")
    assert driver.console_errors(DRIVER_EXPECTED_FAILED_LOADS) == [], "no error in the driver's browser console"
