"""Estimates made before the analysis took the reply into account (see
``game.maerstanas.bots.analysis._mover_chances``) leaned towards the side to move;
mixed with new ones they would draw a saw-tooth and mark good moves as mistakes.
They are dropped, to be made again when a page asks: proven values stand."""

from django.db import migrations


def drop_estimates(apps, schema_editor):
    Analysis = apps.get_model("game", "Analysis")
    Analysis.objects.filter(proven=False, dark_win__isnull=False).delete()


class Migration(migrations.Migration):
    dependencies = [("game", "0013_takeback_declined")]

    operations = [migrations.RunPython(drop_estimates, migrations.RunPython.noop)]
