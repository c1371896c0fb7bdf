"""The example behind ``briefpack demo``: a help-center search for "Is SSO included in Pro?".

Fifteen candidates, best first, as a retriever and reranker would hand them over for the
fictional team-chat product Relay. They hold the usual trouble of a real support corpus:

* the pricing page says SSO is included in Pro, and an FAQ quotes it word for word;
* the chunker's overlap window made a second chunk of the pricing page that repeats most of it
  (it adds no number, version, name or negation, so the dedupe's difference guard lets it go);
* an outdated 2023 version of the pricing page (and of the Okta guide) is still in the index;
* the setup guides have near-copies: a community post and a PDF export;
* the short "Security add-on" page holds the one caveat that changes the answer, "On Pro, SSO
  needs the Security add-on for teams under 50 seats", and it was retrieved fifth, so a plain
  concatenation of the top results leaves it in the middle of the context, where models read
  worst.

``briefpack.assemble(question, candidates, supersede="url", order="edges")`` drops the copies
and the outdated versions, and puts the caveat at the end of the sources: the second-best source
goes last, where it is read.

>>> import briefpack as bp
>>> from briefpack.demo import CAVEAT_ID, example
>>> question, candidates = example()
>>> result = bp.assemble(question, candidates, supersede="url", budget=DEMO_BUDGET,
...                      tokenizer="approx", backend="python")
>>> result.sources[-1].chunk.id == CAVEAT_ID
True
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .types import Chunk

__all__ = [
    "CANDIDATES",
    "CAVEAT",
    "CAVEAT_ID",
    "DEMO_BUDGET",
    "DEMO_OPTIONS",
    "QUESTION",
    "DemoExample",
    "example",
]

QUESTION = "Is SSO included in the Pro plan?"
"""The question the demo asks."""

CAVEAT = "On Pro, SSO needs the Security add-on for teams under 50 seats."
"""The sentence that changes the answer and is easy to bury in the middle."""

CAVEAT_ID = "security/add-on#1"
"""The id of the candidate that holds ``CAVEAT``."""

DEMO_BUDGET = 1000
"""Context tokens for the demo: enough for the useful sources, too few for the long tail."""

DEMO_OPTIONS: dict[str, Any] = {"supersede": "url", "dedupe": "jaccard", "threshold": 0.7}
"""The ``assemble`` options the demo uses besides budget, order, labels and tokenizer."""

_PRICING = "https://relay.example/pricing/pro"
_OKTA = "https://help.relay.example/guides/sso-okta"
_ENTRA = "https://help.relay.example/guides/sso-entra-id"

_PRO_SSO = (
    "The Pro plan includes single sign-on (SSO) with SAML 2.0, so your team can sign in with "
    "Okta, Microsoft Entra ID or Google Workspace. Pro also includes unlimited message history, "
    "guest accounts, 20 GB of storage per member and priority email support."
)

_OKTA_STEPS = (
    "You need to be a workspace owner. "
    "1. In the Okta admin console, open Applications and choose Create App Integration, then "
    "SAML 2.0. "
    "2. Set the single sign-on URL to https://relay.example/sso/saml/acs and the audience URI "
    "to https://relay.example. "
    "3. Assign the people or groups who should use Relay, then download the IdP metadata XML. "
    "4. In Relay, open Settings > Security > Single sign-on, upload the metadata and click Test "
    "connection. "
    "5. When the test passes, turn on Require SSO so members can no longer sign in with a "
    "password."
)

_ENTRA_STEPS = (
    "You need to be a workspace owner and an Entra ID application administrator. "
    "1. In the Microsoft Entra admin center, open Enterprise applications, choose New "
    "application, then Create your own application (non-gallery). "
    "2. Under Single sign-on choose SAML, set the reply URL to "
    "https://relay.example/sso/saml/acs and the identifier to https://relay.example. "
    "3. Download the Federation Metadata XML. "
    "4. In Relay, open Settings > Security > Single sign-on, upload the metadata and click Test "
    "connection."
)

CANDIDATES: tuple[dict[str, Any], ...] = (
    {
        "id": "pricing/pro#2",
        "doc": "pricing/pro",
        "position": 2,
        "title": "Pro plan",
        "url": _PRICING,
        "updated": "2024-09-02",
        "score": 0.93,
        "text": _PRO_SSO,
    },
    {
        "id": "faq/sso-pro#1",
        "doc": "faq/sso-pro",
        "position": 1,
        "title": "FAQ: Is SSO included in Pro?",
        "url": "https://help.relay.example/faq/sso-pro",
        "updated": "2024-09-10",
        "score": 0.91,
        "text": f'Yes. As the pricing page puts it: "{_PRO_SSO}"',
    },
    {
        "id": "pricing/pro@2023#2",
        "doc": "pricing/pro@2023",
        "position": 2,
        "title": "Pro plan",
        "url": _PRICING,
        "updated": "2023-04-18",
        "score": 0.90,
        "text": (
            "The Pro plan includes unlimited message history, guest accounts, 10 GB of storage "
            "per member and email support. Single sign-on (SSO) with SAML is available on the "
            "Enterprise plan only."
        ),
    },
    {
        "id": "pricing/pro#3",
        "doc": "pricing/pro",
        "position": 3,
        "title": "Pro plan",
        "url": _PRICING,
        "updated": "2024-09-02",
        "score": 0.89,
        "text": (
            "single sign-on (SSO) with SAML 2.0, so your team can sign in with Okta, Microsoft "
            "Entra ID or Google Workspace. Pro also includes unlimited message history, guest "
            "accounts, 20 GB of storage per member and priority email support. Annual billing "
            "is available on every plan."
        ),
    },
    {
        "id": CAVEAT_ID,
        "doc": "security/add-on",
        "position": 1,
        "title": "Security add-on",
        "url": "https://relay.example/pricing/security-add-on",
        "updated": "2024-10-01",
        "score": 0.87,
        "text": (
            "The Security add-on costs $2 per member per month and adds audit logs, session "
            f"controls and data retention policies. {CAVEAT}"
        ),
    },
    {
        "id": "guides/sso-okta#1",
        "doc": "guides/sso-okta",
        "position": 1,
        "title": "Set up SSO with Okta",
        "url": _OKTA,
        "updated": "2024-08-20",
        "score": 0.84,
        "text": _OKTA_STEPS,
    },
    {
        "id": "guides/sso-okta@2023#1",
        "doc": "guides/sso-okta@2023",
        "position": 1,
        "title": "Set up SSO with Okta",
        "url": _OKTA,
        "updated": "2023-02-14",
        "score": 0.83,
        "text": (
            "SSO is an Enterprise feature; contact sales to enable it. "
            "1. In Okta, add a new SAML 2.0 app. "
            "2. Set the single sign-on URL to https://relay.example/saml/consume. "
            "3. Send the IdP metadata to support@relay.example and we will turn SSO on for you."
        ),
    },
    {
        "id": "guides/sso-entra-id#1",
        "doc": "guides/sso-entra-id",
        "position": 1,
        "title": "Set up SSO with Microsoft Entra ID",
        "url": _ENTRA,
        "updated": "2024-08-20",
        "score": 0.81,
        "text": _ENTRA_STEPS,
    },
    {
        "id": "community/t/4411#1",
        "doc": "community/t/4411",
        "position": 1,
        "title": "How to: Okta SSO setup (copied from the help center)",
        "url": "https://community.relay.example/t/okta-sso-setup/4411",
        "updated": "2024-08-29",
        "score": 0.80,
        "text": (
            "Posting this here because it took me a while to find. "
            + _OKTA_STEPS.replace("Settings > Security > Single sign-on", "Settings → Security")
        ),
    },
    {
        "id": "guides/sso-google#1",
        "doc": "guides/sso-google",
        "position": 1,
        "title": "Set up SSO with Google Workspace",
        "url": "https://help.relay.example/guides/sso-google",
        "updated": "2024-08-20",
        "score": 0.77,
        "text": (
            "You need to be a workspace owner and a Google Workspace super admin. "
            "1. In the Google Admin console, open Apps > Web and mobile apps and add a custom "
            "SAML app. "
            "2. Copy the SSO URL and the certificate, and set the ACS URL to "
            "https://relay.example/sso/saml/acs. "
            "3. In Relay, open Settings > Security > Single sign-on, paste the SSO URL and the "
            "certificate, and click Test connection."
        ),
    },
    {
        "id": "pdf/admin-guide#14",
        "doc": "pdf/admin-guide",
        "position": 14,
        "title": "Relay admin guide (PDF), page 14",
        "url": "https://relay.example/downloads/relay-admin-guide.pdf",
        "updated": "2024-08-21",
        "score": 0.75,
        "text": "Single sign-on with Microsoft Entra ID. " + _ENTRA_STEPS,
    },
    {
        "id": "security/scim#1",
        "doc": "security/scim",
        "position": 1,
        "title": "User provisioning with SCIM",
        "url": "https://help.relay.example/security/scim",
        "updated": "2024-06-03",
        "score": 0.72,
        "text": (
            "SCIM provisioning lets your identity provider create, update and deactivate Relay "
            "accounts automatically. SCIM is available on the Enterprise plan and needs SSO to "
            "be set up first."
        ),
    },
    {
        "id": "billing/seats#2",
        "doc": "billing/seats",
        "position": 2,
        "title": "How seats are counted",
        "url": "https://help.relay.example/billing/seats",
        "updated": "2024-05-15",
        "score": 0.69,
        "text": (
            "A seat is any member who is active in the billing period; guests and deactivated "
            "members do not take a seat. The seat count on your invoice is the highest number "
            "of active members during the month."
        ),
    },
    {
        "id": "changelog/2024-09#3",
        "doc": "changelog/2024-09",
        "position": 3,
        "title": "Changelog: September 2024",
        "url": "https://relay.example/changelog/2024-09",
        "updated": "2024-09-02",
        "score": 0.66,
        "text": (
            "SSO comes to Pro. Single sign-on used to be an Enterprise feature; from 2 September "
            "2024 Pro workspaces can turn it on under Settings > Security > Single sign-on."
        ),
    },
    {
        "id": "guides/sso-troubleshooting#1",
        "doc": "guides/sso-troubleshooting",
        "position": 1,
        "title": "Troubleshooting SSO sign-in errors",
        "url": "https://help.relay.example/guides/sso-troubleshooting",
        "updated": "2024-07-30",
        "score": 0.61,
        "text": (
            "If members see 'SAML response invalid', check that the clock of your identity "
            "provider is within five minutes of UTC and that the certificate in Relay matches "
            "the one your identity provider signs with; certificates rotate every year and the "
            "old one stops working on the day it expires. If members see 'User not assigned', "
            "assign them to the Relay app in your identity provider. If sign-in loops back to "
            "the login page, clear the browser's cookies for relay.example and make sure the "
            "audience URI is exactly https://relay.example with no trailing slash. If only some "
            "members are affected, compare their email addresses in Relay and in the identity "
            "provider: they must match, including the domain. If Test connection fails with "
            "'Signature mismatch', download the metadata again and upload it once more; an "
            "edited or partial metadata file is the most common cause. Owners can always sign "
            "in with a password at relay.example/login?sso=0, so a broken SSO setup never "
            "locks a workspace out."
        ),
    },
)
"""The candidates as plain mappings with ``Chunk``'s keys, best first."""


class DemoExample(NamedTuple):
    """The demo's question and its candidates (``Chunk``s, best first)."""

    question: str
    candidates: list[Chunk]


def example() -> DemoExample:
    """Return the demo question and a fresh list of its candidates, best first.

    >>> question, candidates = example()
    >>> question
    'Is SSO included in the Pro plan?'
    >>> len(candidates), candidates[0].id
    (15, 'pricing/pro#2')
    """
    return DemoExample(QUESTION, [Chunk(**row) for row in CANDIDATES])
