"""Settings of the Mǽrstánas site, read from the environment.

Every value a self-hoster changes comes from an environment variable (see the
README's "Self-hosting" section); the defaults suit a developer's machine.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool = False) -> bool:
    """Read a yes/no variable; raise ImproperlyConfigured on anything else."""
    value = os.environ.get(name)
    if value is None:
        return default
    if value.strip().lower() in _TRUE:
        return True
    if value.strip().lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be one of 1/0, true/false, yes/no, on/off: {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated list; empty items are dropped."""
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    """Read a whole number; raise ImproperlyConfigured on anything else."""
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number: {value!r}") from None


def env_float(name: str, default: float) -> float:
    """Read a positive number; raise ImproperlyConfigured on anything else."""
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        number = 0.0
    # float() reads "inf" in any case: "INF" is the same infinity.
    if not 0 < number < float("inf"):  # pragma: no mutate
        raise ImproperlyConfigured(f"{name} must be a positive number: {value!r}")
    return number


DEBUG = env_bool("DJANGO_DEBUG")
# Invite codes and seat cookies are signed with the key: with the public development
# key anyone could compute a game's invite from its id, so production refuses it.
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"]
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", LOOPBACK_HOSTS)
# Others can reach the site where it answers to more than loopback names, or where a
# proxy hands it other people's requests.
_PUBLIC_HOSTS = [host for host in ALLOWED_HOSTS if host not in LOOPBACK_HOSTS]
_REACHED_BY = ", ".join(_PUBLIC_HOSTS) or "the requests a proxy hands it"
_REACHABLE = bool(_PUBLIC_HOSTS) or env_bool("DJANGO_BEHIND_PROXY") or env_bool("DJANGO_SECURE")


def key_weakness(key: str) -> str:
    """Why ``key`` is too weak to sign with, in words, or "" if it is not: Django's
    own measure (security.W009), 50 characters and 5 different ones at least, and not
    marked insecure. Never says the key itself."""
    if key.startswith("django-insecure-"):
        return "it starts with django-insecure-, Django's mark of an insecure key"
    if len(key) < 50:
        return f"{len(key)} character{'s' if len(key) != 1 else ''}, and 50 is the least"
    if len(set(key)) < 5:
        return f"only {len(set(key))} different characters, and 5 is the least"
    return ""


if not SECRET_KEY:
    if env_bool("DJANGO_SECURE"):
        raise ImproperlyConfigured(
            "DJANGO_SECURE is on but DJANGO_SECRET_KEY is not set: with the public "
            "development key anyone could forge invite links and seat cookies. Set "
            "DJANGO_SECRET_KEY to a long random secret (see the README)."
        )
    # The public key only where nobody else can reach the site.
    if _REACHABLE:
        raise ImproperlyConfigured(
            f"DJANGO_SECRET_KEY is not set, and the site answers to {_REACHED_BY}: with "
            "the public development key anyone could forge invite links and seat "
            "cookies. Set DJANGO_SECRET_KEY to a long random secret (see the README)."
        )
    SECRET_KEY = "django-insecure-development-key-set-DJANGO_SECRET_KEY-in-production"
elif _REACHABLE and (weakness := key_weakness(SECRET_KEY)):
    # A short key is guessed offline from one signed cookie, and then every session,
    # seat and invite is forged: on loopback only check --deploy's warning says so.
    raise ImproperlyConfigured(
        f"DJANGO_SECRET_KEY is too weak: {weakness}; the site answers to {_REACHED_BY}, "
        "and anyone who guessed the key could forge sessions, invite links and seat "
        "cookies. Set DJANGO_SECRET_KEY to a long random secret (see the README)."
    )
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "csp",
    "django_htmx",
    "django_tasks",
    "django_tasks_db",
    "allauth",
    "allauth.account",
    "kit",
    # The games, each an app of its own (game/<name>/), the site's usual one first.
    "game.maerstanas",
    "game.cyngesheall",
    "game.seven_four",
    "game.parking_lot",
    "game.land_grab",
    "game.moai",
    "game",
    "players",
    "notifications",
    "chat",
    "lobby",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Django's, whose user is a guest once the login ended (logged out elsewhere).
    "players.sessions.AuthenticationMiddleware",
    "players.middleware.ApiTokenMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    "kit.limits.ClientMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "maerstanas_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "game.context_processors.site",
                "notifications.context_processors.unread",
            ],
        },
    },
]

WSGI_APPLICATION = "maerstanas_site.wsgi.application"
ASGI_APPLICATION = "maerstanas_site.asgi.application"

# SQLite by default: WAL lets readers (the polls) run beside the one writer,
# IMMEDIATE takes the write lock at BEGIN so two moves queue instead of
# deadlocking, and the timeout (seconds) makes the second one wait its turn.
_SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": (
        "PRAGMA journal_mode=WAL;"
        "PRAGMA synchronous=NORMAL;"
        "PRAGMA foreign_keys=ON;"
        "PRAGMA mmap_size=268435456;"
    ),
}

# Each server process runs its requests' synchronous code on one thread
# (maerstanas_site/asgi.py), which keeps its connection: opening one (and its
# PRAGMAs) would cost more than the cheap requests themselves.
if os.environ.get("DATABASE_URL"):
    DATABASES = {
        "default": dj_database_url.parse(
            os.environ["DATABASE_URL"],
            conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
            conn_health_checks=True,
        )
    }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        DATABASES["default"]["OPTIONS"] = _SQLITE_OPTIONS
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", BASE_DIR / "db.sqlite3"),
            "OPTIONS": _SQLITE_OPTIONS,
            "CONN_MAX_AGE": None,
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The default cache is a table of the site's own database (made by the migration
# players/0004), so what is counted in it holds across every server process and
# host: django-allauth's limits on logins, sign-ups and reset mails, which counted in
# each process's memory let a guesser have a few times the allowance. Its rows are
# those limits' recent attempts; MAX_ENTRIES stands far above them, since past it
# Django deletes a third of the rows, counts and all. Pictures drawn (some 50 kB
# each, 70 ms of a core to draw) are kept by their ETag in each process's memory.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "site_cache",
        "OPTIONS": {"MAX_ENTRIES": 200_000},
    },
    "pictures": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "pictures",
        "OPTIONS": {"MAX_ENTRIES": 400},
    },
}

# The computer's moves are thought out by a worker (`manage.py worker`), never in a
# web request: the database backend queues them in the site's own database, so
# running the site needs no other service.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

# Live pages: how often each server process looks for changed games on SQLite
# (PostgreSQL pushes them), and how often an idle stream says it is alive.
LIVE_WATCH_SECONDS = env_float("MAERSTANAS_LIVE_WATCH_SECONDS", 0.05)
LIVE_KEEPALIVE_SECONDS = env_float("MAERSTANAS_LIVE_KEEPALIVE_SECONDS", 15)
# A stream ends after this long, and its browser opens another; each server process
# lets one address hold this many open, and open this many a minute (kit.streams.Gate).
LIVE_STREAM_SECONDS = env_float("MAERSTANAS_LIVE_STREAM_SECONDS", 3600)
LIVE_STREAMS_PER_CLIENT = env_int("MAERSTANAS_LIVE_STREAMS_PER_CLIENT", 30)
LIVE_STREAM_OPENS_PER_MINUTE = env_int("MAERSTANAS_LIVE_STREAM_OPENS_PER_MINUTE", 120)

# The lobby: how many open challenges one player may hold.
LOBBY_OPEN_CHALLENGES = env_int("MAERSTANAS_LOBBY_OPEN_CHALLENGES", 3)

# How often one client may create games, join them and write through the API
# (kit/limits.py); off only for load tests run from one address.
RATE_LIMITS = env_bool("MAERSTANAS_RATE_LIMITS", True)
# Watchers of a game between people have a chat of their own (chat/), which the
# players never see; off, watchers only read the players' chat once the game is over.
WATCHER_CHAT = env_bool("MAERSTANAS_WATCHER_CHAT", True)
# The retention policy the worker runs daily (game/housekeeping.py): unfinished
# games nobody joined or moved in, games in which no move was ever played, analyses
# (a cache) and the worker's finished task results, each after this many days.
ABANDONED_GAME_DAYS = env_int("MAERSTANAS_ABANDONED_DAYS", 30)
EMPTY_GAME_DAYS = env_int("MAERSTANAS_EMPTY_GAME_DAYS", 2)
ANALYSIS_DAYS = env_int("MAERSTANAS_ANALYSIS_DAYS", 30)
TASK_RESULT_DAYS = env_int("MAERSTANAS_TASK_RESULT_DAYS", 30)

# Seats live in the session; signed cookies keep them off the database.
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"
MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"

# Accounts are optional (players/): nobody has to sign up to play. django-allauth signs
# up with a username and a password, an e-mail address optional (verified when given,
# and used to reset a forgotten password), and logs in by username or e-mail.
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_UNIQUE_EMAIL = True
# The session is the site's year-long cookie, which holds a guest's seats too: a login
# keeps it so, rather than ending it with the browser.
ACCOUNT_SESSION_REMEMBER = True
ACCOUNT_ADAPTER = "players.adapter.AccountAdapter"
# Nobody learns whether an address has an account: a password reset answers alike for
# any address (allauth's enumeration prevention), and so does a sign-up with an address
# that has one (players/forms.py), allauth's own refusing it in so many words.
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_FORMS = {"signup": "players.forms.SignupForm"}
ACCOUNT_USERNAME_MIN_LENGTH = 3
ACCOUNT_USERNAME_VALIDATORS = "players.names.VALIDATORS"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
# allauth's limits, counted in the shared cache (off with the site's own limits, for
# load tests from one address):
# - failed logins per address and name (the adapter's key) 5 in 5 minutes, 10 in an
#   hour, 20 in a day, so a guesser waits longer each round while the owner logs in
#   from their own address; and per address, whatever the names, 10 a minute, 30 an
#   hour, 100 a day;
# - a password reset mails the address given, whoever asks: at most 3 requests an
#   hour for one address, and 10 an hour from one client (429 past them;
#   players.adapter bounds the mail itself again, in the database). allauth's
#   defaults, 5 a minute for an address and 20 from a client, let one client send an
#   address some 300 mails an hour.
ACCOUNT_RATE_LIMITS = (
    {
        "login_failed": "10/m/ip,30/h/ip,100/d/ip,5/5m/key,10/h/key,20/d/key",
        "reset_password": "10/h/ip,3/h/key",
    }
    if RATE_LIMITS
    else False
)
LOGIN_REDIRECT_URL = "/games/"
LOGIN_URL = "/accounts/login/"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]

# Django's admin for the site's operator (players, games), at a path of its own
# choosing ("DJANGO_ADMIN_PATH=manage-3f9c/"); unset, there is none.
ADMIN_PATH = os.environ.get("DJANGO_ADMIN_PATH", "").strip().strip("/")

# Mail (an address's verification, a password reset) goes through Django's e-mail
# backend: SMTP at DJANGO_EMAIL_HOST when it is set. Else it is not sent, and only
# that it was not (to whom, its subject) is logged: its body holds reset links.
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "maerstanas_site.mail.UnsentBackend"
)
EMAIL_PORT = env_int("DJANGO_EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_USE_TLS")
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "Mǽrstánas <webmaster@localhost>")
# The site's address as its players reach it, for the links in the mail the worker
# sends (notifications/), where no request says which host it is.
SITE_URL = os.environ.get("MAERSTANAS_SITE_URL", "http://127.0.0.1:8000")

# DJANGO_SECURE=1 in production (HTTPS, usually behind a TLS-terminating proxy);
# off by default so `make run` works over plain HTTP on 127.0.0.1.
_SECURE = env_bool("DJANGO_SECURE")
SESSION_COOKIE_SECURE = _SECURE
CSRF_COOKIE_SECURE = _SECURE
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", default=_SECURE)
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31536000 if _SECURE else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = _SECURE
SECURE_HSTS_PRELOAD = _SECURE
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("DJANGO_BEHIND_PROXY", _SECURE) else None
)
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Only our own files: no inline script or style, no CDN, no framing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [NONE],
        "object-src": [NONE],
    },
}
# Above the largest record /import/ reads (64 kB, game.records) and its form, so that
# a record too large is refused by the reader, saying so. The request guard bounds
# every other URL's body far lower (maerstanas_site/guard.py).
DATA_UPLOAD_MAX_MEMORY_SIZE = 96 * 1024

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# AGPL-3.0 §13: a public instance offers its users the source it runs.
SOURCE_URL = os.environ.get("MAERSTANAS_SOURCE_URL", "")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"secrets": {"()": "maerstanas_site.logs.RedactSecrets"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["secrets"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
