"""The passenger's app (/app) in a real browser, on a phone's screen: the
account's own recovery and address. `mytaxi serve` on the demo city with
--public-url (the e-mails' links lead to it), the page in Debian's headless
Chromium driven by Selenium through Debian's chromedriver.

A passenger account, made by an administrator, has forgotten its password:
"Forgot password?" on the login asks for the address, and the app shows the
service's answer. The "forgot password" e-mail, read from the outbox by an
administrator, has a link (#reset=TOKEN) that opens "Set a new password":
two passwords that differ are refused before anything is sent, a password
too short has its rules named at the field, a good one is set and the app
asks for the login, where the new password works (the old one no longer
does); the link opened again is used, and the app offers to ask for a new
e-mail. Logged in, the passenger moves the account to a new address in the
profile: a wrong password and another account's address are named at their
fields; the account keeps its address until the confirmation e-mail's link
(#confirm=TOKEN), opened in the app, confirms the new one, which the
administrators' API then shows. Every screen is checked for an accessible
name on every control, and the console for no error but the 4xx answers the
test provokes.

Set-up in browser_apps.py (MYTAXI_BIN, MYTAXI_WEB_ROOT, MYTAXI_SCREENSHOTS:
app-forgot.png, app-reset.png, app-email.png). Skips, naming the package,
when Chromium, chromedriver, Leaflet or Selenium is missing.
"""
import re
import subprocess
import urllib.error

import pytest

from browser_apps import PASSWORD, PHONE, PassengerApp, binary, browser_tools, call, chromium, log_in, mytaxi_serve, wait_until  # noqa: F401

NEW_PASSWORD = "n3w-pass-word!"
# The calls of the reset's form (POST /v1/password-resets/confirmations) the page made since it was loaded.
RESETS_SENT = """return performance.getEntriesByType('resource')
    .filter(entry => new URL(entry.name).pathname === '/v1/password-resets/confirmations').length"""


@pytest.fixture(scope="module")
def city(browser_tools, tmp_path_factory):
    """`mytaxi serve` on the demo city, the passenger `eve` and the passenger `bob` made by the administrator."""
    with mytaxi_serve(tmp_path_factory.mktemp("account-recovery"), {}, 1) as served:
        served.create_account("passenger", "eve", email="eve@example.com")
        served.create_account("passenger", "bob", email="bob@example.com")
        yield served


@pytest.fixture()
def app(browser_tools, city):
    """The passenger's app in a new headless Chromium on a phone's 390x844 screen: (PassengerApp, port)."""
    with chromium(browser_tools, PHONE) as browser:
        browser.get(city.origin + "/app")
        yield PassengerApp(browser, city.origin), city.port


def latest_mail(port, to, subject_has):
    """The newest e-mail of the outbox (read by an administrator) to `to` whose subject has `subject_has`."""
    admin = log_in(port, "admin")
    return wait_until(f"an e-mail to {to} about {subject_has!r} is in the outbox", lambda: [
        mail for mail in call(port, "GET", "/v1/outbox?limit=20", admin)
        if mail["to"] == to and subject_has in mail["subject"].lower()])[0]


def reset_link(origin, mail):
    """The link of a "forgot password" e-mail, which `serve --public-url` puts in it."""
    found = re.search(r"http://\S+/app#reset=\S+", mail["body"])
    if found is None:
        # A binary built before --public-url put the link in this e-mail writes the token only (its --help then
        # names URL/app#confirm=TOKEN but not URL/app#reset=TOKEN): the link is made of the token as the service
        # would. Once the binary names the reset link, the e-mail must carry it.
        help_text = subprocess.run([binary(), "serve", "--help"], capture_output=True, text=True).stdout
        assert "app#reset=" not in re.sub(r"\s+", "", help_text), f"the e-mail carries the link: {mail['body']}"
        token = re.search(r"^\s+([A-Za-z0-9_-]{20,})$", mail["body"], re.M).group(1)
        return f"{origin}/app#reset={token}"
    assert found.group(0).startswith(f"{origin}/app#reset="), found.group(0)
    return found.group(0)


def test_a_forgotten_password_is_set_anew_and_the_address_changed(app):
    tab, port = app
    tab.wait_shown("the app opens on the login", "screen-login")
    wait_until("the app's script is loaded", lambda: tab.js("return typeof L === 'object' && document.readyState === 'complete'"))

    # "Forgot password?": the address asked for, the service's answer shown.
    tab.tap("#go-forgot")
    tab.wait_shown("the forgot-password form", "screen-forgot")
    tab.assert_named_controls("forgot-password")
    tab.type("#forgot-email", "eve@example.com")
    tab.tap("#forgot-form button[type=submit]")
    answer = tab.wait_text("the service's answer is shown", "forgot-result", lambda text: "eve@example.com" in text)
    assert answer == call(port, "POST", "/v1/password-resets", body={"email": "eve@example.com"})["detail"], \
        "the app shows the answer's detail"
    tab.screenshot("app-forgot.png")

    # The e-mail's link opens "Set a new password"; the token leaves the address bar.
    link = reset_link(tab.origin, latest_mail(port, "eve@example.com", "password"))
    tab.driver.get(link)
    tab.wait_shown("the new password's form", "screen-reset")
    assert "reset=" not in tab.driver.current_url, "the token is not left in the address bar"
    assert not tab.shown("tabs")
    tab.assert_named_controls("new-password")

    # Two passwords that differ: refused at the field, nothing sent.
    tab.type("#reset-password", NEW_PASSWORD)
    tab.type("#reset-repeat", NEW_PASSWORD + "x")
    tab.tap("#reset-form button[type=submit]")
    tab.wait_text("the passwords differ", "reset-repeat-error", lambda text: "differ" in text)
    assert tab.find("#reset-repeat").get_attribute("aria-invalid") == "true"
    assert tab.js(RESETS_SENT) == 0, "two passwords that differ are not sent"

    # Too short: the rules the service names are shown at the field.
    tab.type("#reset-password", "short")
    tab.type("#reset-repeat", "short")
    tab.tap("#reset-form button[type=submit]")
    problem = tab.wait_text("the password's rules are named at the field", "reset-password-error", lambda text: "8 characters" in text)
    assert "digit" in problem, problem
    assert tab.find("#reset-password").get_attribute("aria-invalid") == "true"
    assert tab.text("reset-repeat-error") == "" and tab.find("#reset-repeat").get_attribute("aria-invalid") is None
    assert tab.text("reset-error") == "Please correct the fields above."
    tab.assert_named_controls("new-password")
    tab.screenshot("app-reset.png")

    # A good one: set; the login follows, where the old password no longer works and the new one does.
    tab.type("#reset-password", NEW_PASSWORD)
    tab.type("#reset-repeat", NEW_PASSWORD)
    tab.tap("#reset-form button[type=submit]")
    tab.wait_text("the app says the password is set", "login-note", lambda text: text == "Your new password is set: log in with it.")
    assert tab.shown("screen-login")
    with pytest.raises(urllib.error.HTTPError) as refused:
        call(port, "POST", "/v1/sessions", body={"username": "eve", "password": PASSWORD})
    assert refused.value.code == 401, "the old password no longer works"

    # The link again: used; the app offers to ask for a new e-mail.
    tab.driver.get(link)
    tab.wait_shown("the new password's form", "screen-reset")
    tab.type("#reset-password", NEW_PASSWORD)
    tab.type("#reset-repeat", NEW_PASSWORD)
    tab.tap("#reset-form button[type=submit]")
    tab.wait_text("the link is used", "forgot-note", lambda text: "used or has expired" in text)
    assert tab.shown("screen-forgot") and tab.shown("forgot-email")
    tab.assert_named_controls("forgot-password")
    tab.tap("#forgot-go-login")

    tab.log_in("eve", NEW_PASSWORD)

    # The profile: a new address, refused with a wrong password and when another account has it.
    tab.tap("#tabs a[data-screen=profile]")
    tab.wait_shown("the profile", "email-form")
    tab.type("#email-password", "not-my-pass-1!")
    tab.type("#email-new", "eve.new@example.com")
    tab.tap("#email-form button[type=submit]")
    tab.wait_text("a wrong password is named at its field", "email-password-error", lambda text: "not this account's" in text)
    assert tab.find("#email-password").get_attribute("aria-invalid") == "true"
    tab.type("#email-password", NEW_PASSWORD)
    tab.type("#email-new", "bob@example.com")
    tab.tap("#email-form button[type=submit]")
    tab.wait_text("another account's address is named at its field", "email-new-error", lambda text: text != "")
    assert tab.text("email-password-error") == ""
    tab.type("#email-password", NEW_PASSWORD)
    tab.type("#email-new", "eve.new@example.com")
    tab.tap("#email-form button[type=submit]")
    result = tab.wait_text("the change is asked for", "email-result", lambda text: "eve.new@example.com" in text)
    assert result.endswith("Until then your account keeps eve@example.com."), result
    assert tab.text("email-new-error") == ""
    tab.assert_named_controls("profile")
    tab.screenshot("app-email.png")
    admin = log_in(port, "admin")
    assert call(port, "GET", "/v1/accounts/eve", admin)["email"] == "eve@example.com", "the address is kept until confirmed"

    # The confirmation e-mail's link, opened in the app (logged in): the new address is the account's.
    mail = latest_mail(port, "eve.new@example.com", "confirm")
    confirm = re.search(r"http://\S+/app#confirm=\S+", mail["body"]).group(0)
    assert confirm.startswith(f"{tab.origin}/app#confirm="), confirm
    tab.driver.get(confirm)
    tab.wait_text("the app says the address is confirmed", "email-result",
                  lambda text: text == "The address eve.new@example.com is confirmed: it is your account's address now.")
    assert tab.shown("screen-profile")
    assert "confirm=" not in tab.driver.current_url, "the token is not left in the address bar"
    assert call(port, "GET", "/v1/accounts/eve", admin)["email"] == "eve.new@example.com"
    tab.assert_named_controls("profile")
    assert tab.console_errors([
        r"/v1/password-resets/confirmations - Failed to load resource: the server responded with a status of (400|422)",
        r"/v1/account/email - Failed to load resource: the server responded with a status of (409|422)",
    ]) == []
