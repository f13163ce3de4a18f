"""Position texts, notations and analyses' keys and lines as texts of any length: a
game's board may be of any size its rules allow."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('game', '0018_one_no_winner'),
    ]

    operations = [
        migrations.AlterField(
            model_name='analysis',
            name='key',
            field=models.TextField(help_text="the rules' flags and the position text"),
        ),
        migrations.AlterField(
            model_name='analysis',
            name='line',
            field=models.TextField(blank=True, help_text='moves, comma-separated'),
        ),
        migrations.AlterField(
            model_name='game',
            name='position_text',
            field=models.TextField(),
        ),
        migrations.AlterField(
            model_name='game',
            name='start_text',
            field=models.TextField(blank=True),
        ),
        migrations.AlterField(
            model_name='move',
            name='notation',
            field=models.TextField(),
        ),
    ]
