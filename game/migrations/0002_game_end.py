# One status for a game, saying why it ended: "finished" becomes "resigned" (when
# the old ``resigned`` column names a side) or "no-moves"; then the column goes.

from django.db import migrations, models


def finished_to_reason(apps, schema_editor):
    Game = apps.get_model("game", "Game")
    finished = Game.objects.filter(status="finished")
    finished.exclude(resigned="").update(status="resigned")
    finished.filter(resigned="").update(status="no-moves")


def reason_to_finished(apps, schema_editor):
    Game = apps.get_model("game", "Game")
    for game in Game.objects.filter(status="resigned"):
        game.resigned = {"dark": "light", "light": "dark"}[game.result]
        game.status = "finished"
        game.save(update_fields=["resigned", "status"])
    Game.objects.filter(status="no-moves").update(status="finished")


class Migration(migrations.Migration):

    dependencies = [
        ("game", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="status",
            field=models.CharField(
                choices=[
                    ("waiting", "Waiting for a player"),
                    ("active", "In play"),
                    ("no-moves", "Neither side can move"),
                    ("resigned", "Resigned"),
                ],
                default="active",
                max_length=12,
            ),
        ),
        migrations.RunPython(finished_to_reason, reason_to_finished),
        migrations.RemoveField(
            model_name="game",
            name="resigned",
        ),
        migrations.AlterField(
            model_name="game",
            name="turn",
            field=models.CharField(
                blank=True, help_text="empty once the game has ended", max_length=5
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        ("result__in", ["dark", "light", "tie"]),
                        ("status__in", ["no-moves", "resigned"]),
                    ),
                    models.Q(
                        models.Q(("status__in", ["no-moves", "resigned"]), _negated=True),
                        ("result", ""),
                    ),
                    _connector="OR",
                ),
                name="result_when_ended",
            ),
        ),
    ]
