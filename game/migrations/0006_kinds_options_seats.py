"""Games gain their kind (every game so far is Mǽrstánas) and keep their options in one
JSON field; each side's holder moves from two columns a side to a ``Seat`` row; an
analysis is keyed by its kind too. Saved games are carried over, and back."""

import django.db.models.deletion
from django.db import migrations, models

import game.models

SIDES = ("dark", "light")


def to_kinds_and_seats(apps, schema_editor):
    Game = apps.get_model("game", "Game")
    Seat = apps.get_model("game", "Seat")
    seats = []
    for game in Game.objects.iterator(chunk_size=500):
        game.kind = "maerstanas"
        game.options = {
            "special_stones": game.special_stones,
            "scoring": game.scoring,
            "wraparound": game.wraparound,
        }
        game.save(update_fields=["kind", "options"])
        for color in SIDES:
            token_hash = getattr(game, f"{color}_seat")
            level = getattr(game, f"{color}_level")
            if token_hash or level:
                seats.append(Seat(game=game, color=color, token_hash=token_hash, level=level))
    Seat.objects.bulk_create(seats, batch_size=500)


def to_columns(apps, schema_editor):
    Game = apps.get_model("game", "Game")
    Seat = apps.get_model("game", "Seat")
    for game in Game.objects.iterator(chunk_size=500):
        options = game.options or {}
        game.special_stones = options.get("special_stones", True)
        game.scoring = options.get("scoring", "standard")
        game.wraparound = options.get("wraparound", False)
        for seat in Seat.objects.filter(game=game):
            setattr(game, f"{seat.color}_seat", seat.token_hash)
            setattr(game, f"{seat.color}_level", seat.level)
        game.save()


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0005_review_takeback_my_games_analysis"),
    ]

    operations = [
        # The new places first.
        migrations.CreateModel(
            name="Seat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "color",
                    models.CharField(choices=[("dark", "dark"), ("light", "light")], max_length=5),
                ),
                (
                    "token_hash",
                    models.CharField(blank=True, help_text="hash of the seat token", max_length=64),
                ),
                (
                    "level",
                    models.CharField(blank=True, help_text="the computer's level", max_length=16),
                ),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="game.game",
                    ),
                ),
            ],
        ),
        migrations.AddField(
            model_name="game",
            name="kind",
            field=models.CharField(
                default="maerstanas", help_text="game.registry's name", max_length=16
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="options",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="analysis",
            name="kind",
            field=models.CharField(
                default="maerstanas", help_text="game.registry's name", max_length=16
            ),
        ),
        # The games' options and seats, carried over; the old rule on the computer's
        # columns comes back (going back) only once they are filled again.
        migrations.RemoveConstraint(model_name="game", name="computer_holds_one_seat"),
        migrations.RunPython(to_kinds_and_seats, to_columns, elidable=False),
        # Then the old columns go.
        migrations.RemoveConstraint(model_name="game", name="result_when_ended"),
        migrations.RemoveField(model_name="game", name="dark_level"),
        migrations.RemoveField(model_name="game", name="dark_seat"),
        migrations.RemoveField(model_name="game", name="light_level"),
        migrations.RemoveField(model_name="game", name="light_seat"),
        migrations.RemoveField(model_name="game", name="scoring"),
        migrations.RemoveField(model_name="game", name="special_stones"),
        migrations.RemoveField(model_name="game", name="wraparound"),
        migrations.AlterField(
            model_name="analysis",
            name="key",
            field=models.CharField(
                help_text="the rules' flags and the position text", max_length=100
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="status",
            field=models.CharField(
                choices=game.models.status_choices, default="active", max_length=16
            ),
        ),
        migrations.AddConstraint(
            model_name="analysis",
            constraint=models.UniqueConstraint(
                fields=("kind", "key"), name="one_analysis_per_position"
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("result", ""), ("status__in", ["waiting", "active"])),
                    models.Q(
                        models.Q(("status__in", ["waiting", "active"]), _negated=True),
                        ("result__in", ["dark", "light", "tie"]),
                    ),
                    _connector="OR",
                ),
                name="result_when_ended",
            ),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(
                condition=models.Q(("level__gt", "")), fields=["level"], name="computer_seats"
            ),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(
                fields=("game", "color"), name="one_seat_per_side"
            ),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("token_hash__gt", ""), ("level", "")),
                    models.Q(("token_hash", ""), ("level__gt", "")),
                    _connector="OR",
                ),
                name="seat_held_by_one",
            ),
        ),
    ]
