from django.db import migrations, models


def forget_counts(apps, schema_editor):
    # Rows are rewritten every few seconds by the processes serving watchers: those
    # of the old shape (a count of streams) are simply dropped.
    apps.get_model("game", "Audience").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0015_draws"),
    ]

    operations = [
        migrations.RunPython(forget_counts, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="audience", name="one_count_per_process"),
        migrations.RemoveField(model_name="audience", name="count"),
        migrations.AddField(
            model_name="audience",
            name="client",
            field=models.CharField(
                default="", help_text="the client's address, hashed", max_length=16
            ),
            preserve_default=False,
        ),
        migrations.AddConstraint(
            model_name="audience",
            constraint=models.UniqueConstraint(
                fields=("process", "game_id", "client"), name="one_row_per_watcher"
            ),
        ),
    ]
