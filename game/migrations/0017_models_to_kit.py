"""Rate counts, channels and audiences are the site kit's now (kit 0001): the game app
lets go of them in Django's state alone; their tables and rows stay as they are."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0016_audience_counts_clients"),
        ("kit", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="Audience"),
                migrations.DeleteModel(name="Channel"),
                migrations.DeleteModel(name="RateCount"),
            ]
        ),
    ]
