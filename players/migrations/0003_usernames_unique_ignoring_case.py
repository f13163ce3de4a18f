"""Two sign-ups at once as "Ann" and "ann" both pass allauth's check (it reads, then
writes): the database refuses the second. auth.User is Django's own model, so the
index is made here, in SQL both SQLite and PostgreSQL read."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0002_accounts_and_tokens"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunSQL(
            "CREATE UNIQUE INDEX players_username_unique_ignoring_case "
            "ON auth_user (LOWER(username))",
            "DROP INDEX players_username_unique_ignoring_case",
        )
    ]
