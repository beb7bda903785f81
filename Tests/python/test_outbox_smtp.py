"""The outbox delivered by SMTP to a real relay (aiosmtpd, started by the
test): `mytaxi serve --smtp smtp://mailer@127.0.0.1:PORT` with STARTTLS
required and AUTH, its CA given with --smtp-ca-file and the password in
MYTAXI_SMTP_PASSWORD. A passenger's confirmation e-mail arrives at the relay
with its token, and the outbox says sent; a recipient the relay refuses for
good (550) is failed with the relay's words; one it refuses for now (451) is
tried again; and while the relay is away the e-mail waits, then goes once
the relay is back. The service runs at 20 service seconds a real second, so
the pauses between attempts (30 s, then 60 s) pass in a few real seconds.
"""
import base64
import email
import os
import re
import shutil
import ssl
import subprocess

import pytest

from browser_apps import call, free_port, mytaxi_serve, wait_until

aiosmtpd = pytest.importorskip("aiosmtpd", reason="aiosmtpd is not installed: make deps-python")
from aiosmtpd.controller import Controller  # noqa: E402
from aiosmtpd.smtp import AuthResult  # noqa: E402

PASSWORD = "relay-pass-1"


class Relay:
    """What the relay took, and the answers it gives chosen recipients."""

    def __init__(self):
        self.messages = []
        self.refuse = {"nobody@example.org": "550 5.1.1 no such user here", "busy@example.org": "451 4.3.0 mailbox busy, try later"}

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return self.refuse[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.messages.append((envelope.mail_from, envelope.rcpt_tos, email.message_from_bytes(envelope.original_content)))
        return "250 Message accepted"


def authenticator(server, session, envelope, mechanism, auth_data):
    return AuthResult(success=auth_data.login == b"mailer" and auth_data.password == PASSWORD.encode())


def certificates(folder):
    """A CA and the relay's certificate for 127.0.0.1 signed by it, made with openssl."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    run = lambda *args: subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=test relay CA")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "relay.key", "-out", "relay.csr", "-subj", "/CN=127.0.0.1")
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    run("x509", "-req", "-in", "relay.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "relay.pem", "-days", "2",
        "-extfile", "san.ext")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(folder / "relay.pem", folder / "relay.key")
    return context, folder / "ca.pem"


def start_relay(handler, port, tls):
    controller = Controller(handler, hostname="127.0.0.1", port=port, tls_context=tls, require_starttls=True,
                            authenticator=authenticator, auth_require_tls=True)
    controller.start()
    return controller


def outbox(city):
    return {mail["to"]: mail for mail in call(city.port, "GET", "/v1/outbox?limit=100", city.admin())}


def register(city, username, address):
    call(city.port, "POST", "/v1/passengers", body={"username": username, "email": address, "password": "long-enough-1"})


def test_the_outbox_goes_to_the_relay_with_retries_and_refusals(tmp_path, monkeypatch):
    tls, ca = certificates(tmp_path)
    port = free_port()
    relay = Relay()
    controller = start_relay(relay, port, tls)
    monkeypatch.setenv("MYTAXI_SMTP_PASSWORD", PASSWORD)
    flags = ["--smtp", f"smtp://mailer@127.0.0.1:{port}", "--smtp-from", "no-reply@taxi.example", "--smtp-ca-file", str(ca)]
    try:
        with mytaxi_serve(tmp_path, {"dev-1": "T1"}, clock_rate=20, extra=flags) as city:
            register(city, "ada", "ada@example.org")
            wait_until("the confirmation at the relay", lambda: relay.messages)
            sender, recipients, message = relay.messages[0]
            assert sender == "no-reply@taxi.example" and recipients == ["ada@example.org"]
            assert message["Subject"] == "Confirm your mytaxi e-mail address"
            text = message.get_payload(decode=True).decode()
            token = max(re.findall(r"[A-Za-z0-9_-]{40,}", text), key=len)
            assert f"/app#confirm={token}" in text
            sent = wait_until("the outbox says sent", lambda: outbox(city)["ada@example.org"], lambda mail: mail["state"] == "sent")
            assert sent["attempts"] == 1 and "sentAt" in sent
            call(city.port, "POST", "/v1/passengers/confirmations", body={"token": token})

            register(city, "nobody", "nobody@example.org")
            failed = wait_until("a refused recipient given up", lambda: outbox(city)["nobody@example.org"],
                                lambda mail: mail["state"] == "failed")
            assert "550" in failed["lastError"] and "no such user" in failed["lastError"]

            register(city, "busy", "busy@example.org")
            retried = wait_until("a busy mailbox tried again", lambda: outbox(city)["busy@example.org"],
                                 lambda mail: mail["attempts"] >= 2)
            assert retried["state"] == "queued" and "451" in retried["lastError"]
            del relay.refuse["busy@example.org"]
            wait_until("the busy mailbox's e-mail sent at last", lambda: outbox(city)["busy@example.org"]["state"] == "sent")

            controller.stop()
            register(city, "eve", "eve@example.org")
            waiting = wait_until("an e-mail waiting while the relay is away", lambda: outbox(city)["eve@example.org"],
                                 lambda mail: mail["attempts"] >= 1)
            assert waiting["state"] == "queued" and "cannot connect" in waiting["lastError"]
            controller = start_relay(relay, port, tls)
            wait_until("the e-mail sent once the relay is back", lambda: outbox(city)["eve@example.org"]["state"] == "sent")
            assert [recipients for _, recipients, _ in relay.messages].count(["eve@example.org"]) == 1
            log = (city.work / "serve.log").read_text()
            assert PASSWORD not in log, "the relay's password is never logged"
    finally:
        controller.stop()
