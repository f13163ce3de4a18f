"""The table of the site's default cache (Django's DatabaseCache), where allauth's
limits on logins, sign-ups and reset mails are counted for every server process at
once: `manage.py migrate` makes it on a fresh machine, as it makes everything else."""

from django.conf import settings
from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


def drop_cache_table(apps, schema_editor):
    quote = schema_editor.quote_name
    for cache in settings.CACHES.values():
        if cache["BACKEND"] == "django.core.cache.backends.db.DatabaseCache":
            schema_editor.execute(f"DROP TABLE IF EXISTS {quote(cache['LOCATION'])}")


class Migration(migrations.Migration):
    dependencies = [("players", "0004_blocks")]

    operations = [migrations.RunPython(create_cache_table, drop_cache_table)]
