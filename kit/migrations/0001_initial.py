"""The kit's models, taken over from the game app, which made their tables: only
Django's idea of who holds them changes (``SeparateDatabaseAndState``); the tables
keep their names and their rows."""

from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("game", "0016_audience_counts_clients"),
    ]

    state = [
        migrations.CreateModel(
            name="Channel",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=40, unique=True)),
                ("revision", models.PositiveIntegerField(default=0)),
                ("updated", models.DateTimeField(auto_now=True, db_index=True)),
            ],
            options={"db_table": "game_channel"},
        ),
        migrations.CreateModel(
            name="RateCount",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "key",
                    models.CharField(help_text="kind:client:window", max_length=100, unique=True),
                ),
                ("count", models.PositiveIntegerField(default=1)),
                ("expires", models.DateTimeField(db_index=True)),
            ],
            options={"db_table": "game_ratecount"},
        ),
        migrations.CreateModel(
            name="Audience",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("process", models.CharField(help_text="host:pid:start time", max_length=100)),
                ("game_id", models.CharField(help_text="the game's public id", max_length=16)),
                (
                    "client",
                    models.CharField(help_text="the client's address, hashed", max_length=16),
                ),
                ("updated", models.DateTimeField(db_index=True)),
            ],
            options={
                "db_table": "game_audience",
                "indexes": [models.Index(fields=["game_id", "updated"], name="audience_of_game")],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("process", "game_id", "client"), name="one_row_per_watcher"
                    )
                ],
            },
        ),
    ]

    operations = [migrations.SeparateDatabaseAndState(state_operations=state)]
